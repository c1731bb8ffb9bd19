// Builds everything the two container images run, in one place, so the Dockerfile and
// the standalone test (tests/release/standalone.int.test.ts) cannot drift:
//
//   dist/release/web/     the Next.js standalone server (server.js, its traced
//                         node_modules and db/migrations, .next/static, public/), healthcheck.mjs
//   dist/release/worker/  worker.mjs, migrate.mjs, create-user.mjs, signers.mjs, limits.mjs, audit-verify.mjs
//                         (esbuild bundles, node 20, ESM, with source maps), healthcheck.mjs, migrations/,
//                         and node_modules/ only for packages the bundles import at run
//                         time (none today: see OPTIONAL_EXTERNALS)
//
//   tsx scripts/build-release.ts               always builds
//   tsx scripts/build-release.ts --if-changed  skips when dist/release matches the sources
//
// The Dockerfile's build stage runs the first form; the images copy dist/release/web and
// dist/release/worker and nothing else.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { sleep } from '@/lib/time/sleep'
import { ReleaseBuildError } from './errors/stack'
import { isWebBuildCurrent, stampWebBuild } from './stack/buildWeb'
import { hashSources } from './stack/hashSources'

/** What the release is built from: a change to any of these rebuilds it. */
export const RELEASE_SOURCES = [
  'app',
  'components',
  'lib',
  'db',
  'worker',
  'public',
  // the bar and typed-data hashing the web and the worker import, and the contracts' artifacts
  'contracts',
  'instrumentation.ts',
  'instrumentation-node.ts',
  'proxy.ts',
  'middleware.ts',
  'next.config.js',
  'next.config.mjs',
  'next.config.ts',
  'postcss.config.mjs',
  'tsconfig.json',
  'tsconfig.web.json',
  'package.json',
  'package-lock.json',
  'scripts/build-release.ts',
  'cli',
]
const SKIP = /(^|\/)(node_modules|\.next|\.data|dist)(\/|$)|\.(test|spec)\.tsx?$/

/**
 * Packages the worker bundles leave out because nothing loads them at run time:
 * - pg-native: `pg` loads it only on `require('pg').native`, inside a try/catch;
 *   mintdesk never asks for it.
 * - typescript (9 MB): cosmiconfig, which graphile-worker uses to look for an optional
 *   graphile-worker config file, requires it lazily, only to read a `.ts` config file;
 *   the images hold none.
 */
const OPTIONAL_EXTERNALS = new Set(['pg-native', 'typescript'])

/** The web image's health check, bundled next to server.js. */
export const WEB_HEALTHCHECK_ENTRY = 'cli/webHealthcheck.ts'

/** The worker-side entry points: output name -> source. */
export const WORKER_ENTRIES = {
  worker: 'worker/runtime/main.ts',
  migrate: 'cli/migrate.ts',
  'create-user': 'cli/create-user.ts',
  signers: 'cli/signers.ts',
  limits: 'cli/limits.ts',
  'audit-verify': 'cli/audit-verify.ts',
  healthcheck: 'cli/workerHealthcheck.ts',
} as const

export type BuildReleaseParameters = {
  root: string
  /** skip when dist/release was built from these exact sources */
  ifChanged?: boolean
  log?: (line: string) => void
}

export type BuildReleaseReturnType = {
  built: boolean
  releaseDir: string
  webDir: string
  workerDir: string
  sourceHash: string
  /** packages the worker bundles import at run time, copied into the node_modules folder beside the worker's bundles */
  workerExternals: string[]
}

export function releaseSourceHash(root: string): string {
  return hashSources(root, { sources: RELEASE_SOURCES, skip: SKIP })
}

export async function buildRelease({
  root,
  ifChanged = false,
  log = (l) => console.log(`[release] ${l}`),
}: BuildReleaseParameters): Promise<BuildReleaseReturnType> {
  const releaseDir = path.join(root, 'dist', 'release')
  const webDir = path.join(releaseDir, 'web')
  const workerDir = path.join(releaseDir, 'worker')
  const stampFile = path.join(releaseDir, 'manifest.json')
  const sourceHash = releaseSourceHash(root)

  if (ifChanged && existsSync(stampFile)) {
    // our own file
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { sourceHash?: string; workerExternals?: string[] }
    if (
      stamp.sourceHash === sourceHash &&
      existsSync(path.join(webDir, 'server.js')) &&
      existsSync(path.join(workerDir, 'worker.mjs'))
    ) {
      log(`dist/release is up to date (sources ${sourceHash.slice(0, 12)})`)
      return { built: false, releaseDir, webDir, workerDir, sourceHash, workerExternals: stamp.workerExternals ?? [] }
    }
  }

  for (const entry of Object.values(WORKER_ENTRIES)) {
    if (!existsSync(path.join(root, entry)))
      throw new ReleaseBuildError(`${entry} does not exist yet: nothing to bundle`)
  }

  rmSync(releaseDir, { recursive: true, force: true })
  mkdirSync(releaseDir, { recursive: true })
  const started = Date.now()

  await buildWeb({ root, webDir, log })
  log(`web: ${path.relative(root, webDir)} (${Math.round((Date.now() - started) / 1000)} s)`)

  const workerStarted = Date.now()
  const workerExternals = await buildWorker({ root, workerDir })
  log(
    `worker: ${path.relative(root, workerDir)} (${Date.now() - workerStarted} ms; external packages: ${workerExternals.join(', ') || 'none'})`,
  )

  writeFileSync(
    stampFile,
    `${JSON.stringify({ sourceHash, builtAt: new Date().toISOString(), node: process.version, workerExternals }, null, 2)}\n`,
  )
  return { built: true, releaseDir, webDir, workerDir, sourceHash, workerExternals }
}

/** next build holds .next/lock; another build in the same checkout (npm start's) makes it exit at once */
const NEXT_LOCK_RETRIES = 40
const NEXT_LOCK_WAIT_MS = 15_000

async function buildWeb({
  root,
  webDir,
  log,
}: {
  root: string
  webDir: string
  log: (l: string) => void
}): Promise<void> {
  // the same .next serves npm start and the e2e tests: build only when the sources changed
  for (let attempt = 1; !isWebBuildCurrent(root); attempt++) {
    log('next build (standalone)')
    const { code, output } = await runForwarding(
      process.execPath,
      [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      },
    )
    if (code === 0) {
      stampWebBuild(root)
      break
    }
    if (attempt < NEXT_LOCK_RETRIES && /process is already running/.test(output)) {
      log(`another next build holds .next/lock: waiting ${NEXT_LOCK_WAIT_MS / 1000} s`)
      await sleep({ ms: NEXT_LOCK_WAIT_MS })
      continue
    }
    throw new ReleaseBuildError(`next build failed (exit ${code})`)
  }

  const standalone = path.join(root, '.next', 'standalone')
  if (!existsSync(path.join(standalone, 'server.js'))) {
    throw new ReleaseBuildError(
      ".next/standalone/server.js is missing: next.config must set output: 'standalone' (and outputFileTracingRoot to the project folder when a lockfile sits above it)",
    )
  }
  // the standalone folder is self-contained: server.js, package.json, the traced node_modules, .next/server
  cpSync(standalone, webDir, { recursive: true, verbatimSymlinks: true })
  // next leaves these to the deployer
  cpSync(path.join(root, '.next', 'static'), path.join(webDir, '.next', 'static'), { recursive: true })
  if (existsSync(path.join(root, 'public')))
    cpSync(path.join(root, 'public'), path.join(webDir, 'public'), { recursive: true })
  // the image's HEALTHCHECK (and the ECS container health check): node healthcheck.mjs
  await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, WEB_HEALTHCHECK_ENTRY)],
    outfile: path.join(webDir, 'healthcheck.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  })
  // /api/ready reads db/migrations/meta/_journal.json: next traces it into the standalone
  // output (next.config.js outputFileTracingIncludes); without it the web is never ready
  if (!existsSync(path.join(webDir, 'db', 'migrations', 'meta', '_journal.json'))) {
    throw new ReleaseBuildError(
      'the standalone output lacks db/migrations (next.config.js outputFileTracingIncludes for /api/ready)',
    )
  }
  // no dev settings inside the image: next copies .env files into standalone
  for (const name of readdirSync(webDir)) if (name.startsWith('.env')) rmSync(path.join(webDir, name), { force: true })
}

export async function buildWorker({ root, workerDir }: { root: string; workerDir: string }): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([out, src]) => [out, path.join(root, src)])),
    outdir: workerDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // V8 keeps a module's whole source text in the heap, as two bytes a character when any
    // character is beyond Latin-1: the unminified bundle, with the comments of its packages
    // (typographic quotes, math symbols), took 11 MB of the worker's ~40 MB live heap. Without
    // whitespace and comments it is a one-byte string of a few MB. Identifiers are kept:
    // stack traces still name their functions (positions map back through the linked map)
    minifyWhitespace: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
    tsconfig: path.join(root, 'tsconfig.json'),
    external: [...OPTIONAL_EXTERNALS],
    // CommonJS dependencies (pg, graphile-worker, ...) call require() and read
    // __dirname/__filename, which an ES module does not have
    banner: {
      js: [
        "import { createRequire as __mintdeskCreateRequire } from 'node:module';",
        "import { fileURLToPath as __mintdeskFileURLToPath } from 'node:url';",
        "import { dirname as __mintdeskDirname } from 'node:path';",
        'const require = __mintdeskCreateRequire(import.meta.url);',
        'const __filename = __mintdeskFileURLToPath(import.meta.url);',
        'const __dirname = __mintdeskDirname(__filename);',
      ].join('\n'),
    },
  })

  const externals = externalPackages(result.metafile)
  const needed = externals.filter((name) => !OPTIONAL_EXTERNALS.has(name))
  if (needed.length > 0) copyProductionPackages({ root, names: needed, into: path.join(workerDir, 'node_modules') })

  // db/migrate.ts finds its migrations next to itself: here, beside migrate.mjs
  cpSync(path.join(root, 'db', 'migrations'), path.join(workerDir, 'migrations'), { recursive: true })
  // graphile-worker 0.17 compiles its SQL migrations into dist/generated/sql.js, which the
  // bundle holds: no sql/*.sql files are read at run time (the test proves it by migrating
  // an empty database with migrate.mjs alone)
  return externals
}

/** Runs a command with its output forwarded to ours, and kept for the caller to read. */
function runForwarding(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const forward = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
      to.write(chunk)
      output = (output + chunk.toString('utf8')).slice(-100_000)
    }
    child.stdout.on('data', forward(process.stdout))
    child.stderr.on('data', forward(process.stderr))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output }))
  })
}

/** Bare package names the bundles import at run time (node builtins left out). */
function externalPackages(metafile: Metafile): string[] {
  const builtins = new Set(builtinModules)
  const names = new Set<string>()
  for (const output of Object.values(metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || imp.path.startsWith('node:') || builtins.has(imp.path)) continue
      const parts = imp.path.split('/')
      names.add(imp.path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? imp.path))
    }
  }
  return [...names].sort()
}

/** Copies packages and their production dependencies (transitively) from node_modules. */
function copyProductionPackages({ root, names, into }: { root: string; names: string[]; into: string }): void {
  const seen = new Set<string>()
  const queue = [...names]
  while (queue.length > 0) {
    const name = queue.shift() as string // length checked above
    if (seen.has(name)) continue
    seen.add(name)
    const dir = path.join(root, 'node_modules', name)
    if (!existsSync(dir))
      throw new ReleaseBuildError(`the worker bundle needs ${name} at run time, but node_modules/${name} is missing`)
    cpSync(dir, path.join(into, name), { recursive: true })
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
    } // a package manifest
    queue.push(...Object.keys(pkg.dependencies ?? {}))
  }
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const ifChanged = process.argv.includes('--if-changed')
  buildRelease({ root, ifChanged }).then(
    (r) =>
      console.log(
        `[release] ${r.built ? 'built' : 'reused'} ${path.relative(root, r.releaseDir)} (sources ${r.sourceHash.slice(0, 12)})`,
      ),
    (err: unknown) => {
      console.error(`[release] ${err instanceof Error ? err.message : String(err)}`)
      process.exit(1)
    },
  )
}
