import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { hashSources } from './hashSources'

const SOURCES = [
  'app',
  'components',
  'lib',
  'db',
  'proxy.ts',
  'instrumentation-node.ts',
  'next.config.js',
  'postcss.config.mjs',
  'tsconfig.json',
  'tsconfig.web.json',
  'instrumentation.ts',
  'package-lock.json',
]
const SKIP = /(^|\/)(node_modules|\.next|\.data)(\/|$)|\.test\.tsx?$/

function webSourcesHash(root: string): string {
  return hashSources(root, { sources: SOURCES, skip: SKIP })
}

const stampOf = (root: string) => path.join(root, '.next', 'mintdesk-build-hash')

/** Whether .next holds a build of the current sources (npm start's or the release build's). */
export function isWebBuildCurrent(root: string): boolean {
  const stamp = stampOf(root)
  return (
    existsSync(stamp) &&
    existsSync(path.join(root, '.next', 'BUILD_ID')) &&
    readFileSync(stamp, 'utf8') === webSourcesHash(root)
  )
}

/** Records that .next now holds a build of the current sources. */
export function stampWebBuild(root: string): void {
  writeFileSync(stampOf(root), webSourcesHash(root))
}

export type BuildWebParameters = { root: string; log: (l: string) => void; force?: boolean }

/** `next build`, only when the web's sources changed since the last build. */
export function buildWeb({ root, log, force = false }: BuildWebParameters): { built: boolean } {
  if (!force && isWebBuildCurrent(root)) return { built: false }
  const hash = webSourcesHash(root)
  log('building the web app (next build); later starts reuse it until the sources change')
  const res = spawnSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  })
  if (res.status !== 0) throw new Error(`next build failed (exit ${res.status})`)
  writeFileSync(stampOf(root), hash)
  return { built: true }
}
