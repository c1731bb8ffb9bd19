import { cpSync, existsSync, rmSync } from 'node:fs'
import path from 'node:path'

/** The local web listens on loopback only: the dev logins and dev secrets must not reach the network. */
export const LOCAL_WEB_HOST = '127.0.0.1'

export type StandaloneWebParameters = {
  /** the repository, where `next build` left .next/ */
  root: string
  port: number
}

/** How the local stack runs the web: its folder, node's arguments and the environment it listens by. */
export type StandaloneWebReturnType = { cwd: string; args: string[]; env: Record<string, string> }

/**
 * The web as the image runs it (Dockerfile, web stage: `node server.js`): Next's standalone server
 * (next.config.js `output: 'standalone'`), which `next start` does not run. Next leaves the static files
 * and public/ to the deployer, so they are copied into .next/standalone first (scripts/build-release.ts does
 * the same for the image), afresh at every start: a rebuild leaves none stale. Bound to 127.0.0.1 (HOSTNAME),
 * not every interface, since the stack runs in dev mode with seeded passwords; the images bind 0.0.0.0 on
 * purpose (their HOSTNAME), behind the load balancer.
 *
 * @example
 * const web = standaloneWeb({ root, port: 3000 })
 * spawn(process.execPath, web.args, { cwd: web.cwd, env: { ...process.env, ...web.env } })
 */
export function standaloneWeb({ root, port }: StandaloneWebParameters): StandaloneWebReturnType {
  const next = path.join(root, '.next')
  const standalone = path.join(next, 'standalone')
  if (!existsSync(path.join(standalone, 'server.js'))) {
    throw new Error(
      ".next/standalone/server.js is missing: build the web first (next build, with next.config.js's output: 'standalone')",
    )
  }
  const copies: [string, string][] = [
    [path.join(next, 'static'), path.join(standalone, '.next', 'static')],
    [path.join(root, 'public'), path.join(standalone, 'public')],
  ]
  for (const [from, to] of copies) {
    rmSync(to, { recursive: true, force: true })
    if (existsSync(from)) cpSync(from, to, { recursive: true })
  }
  return { cwd: standalone, args: ['server.js'], env: { HOSTNAME: LOCAL_WEB_HOST, PORT: String(port) } }
}
