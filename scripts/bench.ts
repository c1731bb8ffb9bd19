// npm run bench: throughput, latency and memory of mintdesk beside its baselines, on its
// own local stack (fresh data folder), written to docs/benchmarks.md. See bench/.
//   npm run bench               the full run (1,000 orders per drain, 1/2/4 signers x 1/2 workers,
//                               the SQS row, tracing off/on, a burn drain of 500, a year of history:
//                               ~15-16 min, and ~25 min more for the year's seed unless --history-data)
//   npm run bench -- --quick    a short run (200 orders, 1 and 4 signers, 1 worker, 100 burns; writes
//                               .data/benchmarks-quick.md)
//   npm run bench -- --smoke    a check that every part runs (20 orders, 1 signer, 1 worker, no
//                               profiles, a 10-order SQS row, 20 burns; writes .data/benchmarks-smoke.md)
//   npm run bench -- --orders 500 --signers 1,4 --workers 1,2 --no-profile --sqs-orders 0
//                    --tracing-orders 0 --burns 0 --history-scale 0 --out FILE
//   npm run bench -- --history-data DIR   measure a year of history seeded in DIR by an earlier run (no new seed)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { BenchOptions } from '../bench/BenchResult'
import { evaluateTargets } from '../bench/report/evaluateTargets'
import { readPreviousCpuPerOrder } from '../bench/report/readPreviousCpuPerOrder'
import { renderReport } from '../bench/report/renderReport'
import { runBench } from '../bench/runBench'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    orders: { type: 'string' },
    'intake-seconds': { type: 'string' },
    concurrency: { type: 'string' },
    signers: { type: 'string' },
    workers: { type: 'string' },
    'seq-txs': { type: 'string' },
    'paced-seconds': { type: 'string' },
    'submit-concurrency': { type: 'string' },
    'noop-jobs': { type: 'string' },
    'bar-list-bars': { type: 'string' },
    'audit-rows': { type: 'string' },
    'block-time': { type: 'string' },
    'no-profile': { type: 'boolean', default: false },
    'sqs-orders': { type: 'string' },
    'tracing-orders': { type: 'string' },
    burns: { type: 'string' },
    'history-scale': { type: 'string' },
    'history-data': { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})
if (values.help) {
  console.log(`usage: npm run bench -- [--quick | --smoke] [--orders N] [--signers 1,2,4] [--workers 1,2] [--concurrency 32] [--intake-seconds S]
       [--seq-txs K] [--paced-seconds S] [--submit-concurrency C] [--noop-jobs J] [--bar-list-bars B] [--audit-rows R] [--block-time S]
       [--no-profile] [--sqs-orders N] [--tracing-orders N] [--burns N] (0: leave that row out)
       [--history-scale X] (a year of history: 1 = a million orders; 0: not measured) [--history-data DIR] [--out FILE]`)
  process.exit(0)
}

const quick = values.quick
const smoke = values.smoke
/** the default of a setting: the smoke run's, the quick run's or the full run's */
const pick = <T>(smokeValue: T, quickValue: T, full: T): T => (smoke ? smokeValue : quick ? quickValue : full)
const int = (value: string | undefined, def: number, name: string, min = 1) => {
  if (value === undefined) return def
  const n = Number(value)
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${value}`)
  return n
}
const fraction = (value: string | undefined, def: number, name: string) => {
  if (value === undefined) return def
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0 || n > 10) throw new Error(`--${name} must be a number from 0 to 10, got ${value}`)
  return n
}
const list = (value: string | undefined, def: number[], name: string) =>
  value === undefined ? def : value.split(',').map((v) => int(v.trim(), 0, name))

const options: BenchOptions = {
  quick: quick || smoke,
  orders: int(values.orders, pick(20, 200, 1000), 'orders'),
  signerCounts: list(values.signers, pick([1], [1, 4], [1, 2, 4]), 'signers'),
  workerCounts: list(values.workers, pick([1], [1], [1, 2]), 'workers'),
  concurrencies: list(values.concurrency, [32], 'concurrency'),
  intakeSeconds: int(values['intake-seconds'], pick(1, 3, 8), 'intake-seconds'),
  seqTxs: int(values['seq-txs'], pick(2, 3, 10), 'seq-txs'),
  pacedSeconds: int(values['paced-seconds'], pick(2, 5, 10), 'paced-seconds'),
  submitConcurrency: int(values['submit-concurrency'], 32, 'submit-concurrency'),
  noopJobs: int(values['noop-jobs'], pick(0, 30, 100), 'noop-jobs', 0),
  barListBars: int(values['bar-list-bars'], pick(0, 10_000, 100_000), 'bar-list-bars', 0),
  auditRows: int(values['audit-rows'], pick(2_000, 100_000, 1_000_000), 'audit-rows', 0),
  blockTime: int(values['block-time'], 1, 'block-time'),
  profile: !values['no-profile'] && !smoke,
  // the SQS row and the tracing pair: drains of the scaling table's size, at most 500 (the added run time)
  sqsOrders: int(
    values['sqs-orders'],
    pick(10, Math.min(500, int(values.orders, 200, 'orders')), Math.min(500, int(values.orders, 1000, 'orders'))),
    'sqs-orders',
    0,
  ),
  tracingOrders: int(
    values['tracing-orders'],
    pick(0, Math.min(500, int(values.orders, 200, 'orders')), Math.min(500, int(values.orders, 1000, 'orders'))),
    'tracing-orders',
    0,
  ),
  // the burn drain's redemptions (1 signer, 1 worker)
  burns: int(values.burns, pick(20, 100, 500), 'burns', 0),
  // a year of history on its own Postgres: a million orders (about 20 minutes' seed) unless a seeded DIR is reused
  historyScale: fraction(values['history-scale'], pick(0.001, 0.01, 1), 'history-scale'),
  historyData: values['history-data'] === undefined ? null : path.resolve(values['history-data']),
}
const out = path.resolve(
  root,
  values.out ?? pick('.data/benchmarks-smoke.md', '.data/benchmarks-quick.md', 'docs/benchmarks.md'),
)
const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ')

const started = performance.now()
const log = (line: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)
try {
  const result = await runBench({ root, options, log })
  result.seconds = (performance.now() - started) / 1000
  result.previous = existsSync(out) ? (readPreviousCpuPerOrder(readFileSync(out, 'utf8')) ?? undefined) : undefined
  const targets = evaluateTargets(result)
  mkdirSync(path.dirname(out), { recursive: true })
  writeFileSync(out, renderReport({ result, targets, command }))
  // every figure of the run, for a closer look than the report's (the folder is wiped by the next run)
  const json = JSON.stringify(
    { command, result, targets },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    2,
  )
  writeFileSync(path.join(root, '.data', 'bench', 'result.json'), `${json}\n`)
  console.log('')
  for (const t of targets)
    console.log(`${t.pass === null ? 'INFO' : t.pass ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}`)
  console.log(`\nbench finished in ${(result.seconds / 60).toFixed(1)} min; report: ${path.relative(root, out)}`)
  process.exit(0)
} catch (error) {
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exit(1)
}
