import { cpSync, existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { dockerTarget, readDockerfile } from '../../tests/release/dockerfile'
import { buildRelease } from '../build-release'
import { LOCAL_WEB_HOST } from './standaloneWeb'

/** How the local stack runs one process of the release: its folder, its command line, the image's extra environment. */
export type ReleaseProcessSpec = {
  cwd: string
  /** node's arguments (the entry point, relative to cwd) */
  args: string[]
  /** the image's ENV for it (NODE_OPTIONS and the like), the local stack's own settings left to the stack */
  env: Record<string, string>
}

export type PreparedRelease = {
  web: ReleaseProcessSpec
  worker: ReleaseProcessSpec
  sourceHash: string
  built: boolean
}

export type PrepareReleaseParameters = {
  root: string
  /**
   * the release is copied here (emptied first): a rebuild of dist/release
   * by someone else cannot pull files from under a running process
   */
  into: string
  log: (line: string) => void
}

/**
 * Variables of the images' ENV the local stack takes as they are (the runtime's tuning); the others (paths,
 * certificates, PORT) are the stack's own.
 */
const IMAGE_ENV_KEPT = ['NODE_OPTIONS', 'MALLOC_ARENA_MAX']

/**
 * The processes as the images run them (docs/decisions/032-bench-measures-shipped-build.md): `scripts/build-release.ts
 * --if-changed` (the Dockerfile's build step: the Next standalone server and the esbuild
 * bundles), copied into `into`, then `node server.js` and `node worker.mjs` with the
 * NODE_OPTIONS of the Dockerfile's web and worker stages, read from the Dockerfile itself
 * so the bench cannot drift from the image. The web listens on loopback (the local stack's
 * dev logins must not reach the network), not on the image's 0.0.0.0.
 */
export async function prepareRelease({ root, into, log }: PrepareReleaseParameters): Promise<PreparedRelease> {
  const release = await buildRelease({ root, ifChanged: true, log })
  rmSync(into, { recursive: true, force: true })
  const webDir = path.join(into, 'web')
  const workerDir = path.join(into, 'worker')
  cpSync(release.webDir, webDir, { recursive: true, verbatimSymlinks: true })
  cpSync(release.workerDir, workerDir, { recursive: true, verbatimSymlinks: true })
  if (!existsSync(path.join(webDir, 'server.js')) || !existsSync(path.join(workerDir, 'worker.mjs'))) {
    throw new Error(`the release copy in ${into} lacks server.js or worker.mjs`)
  }
  const stages = readDockerfile(root)
  const imageEnv = (name: string) => {
    const env = dockerTarget(stages, name).env
    return Object.fromEntries(IMAGE_ENV_KEPT.flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]]])))
  }
  log(`release ${release.sourceHash.slice(0, 12)} (${release.built ? 'built' : 'reused'}) copied to ${into}`)
  return {
    web: { cwd: webDir, args: ['server.js'], env: { ...imageEnv('web'), HOSTNAME: LOCAL_WEB_HOST } },
    worker: { cwd: workerDir, args: ['worker.mjs'], env: imageEnv('worker') },
    sourceHash: release.sourceHash,
    built: release.built,
  }
}
