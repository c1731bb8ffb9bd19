// npm run bench: throughput, latency and memory of mintdesk beside its baselines, on its
// own local stack (fresh data folder), written to docs/benchmarks.md. See bench/.
//   npm run bench                      the full run (N = 1000 orders per signer count)
//   npm run bench -- --quick           a smoke run (small N, short runs; writes .data/benchmarks-quick.md)
//   npm run bench -- --orders 500 --signers 1,4 --workers 2 --no-profile --out FILE
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { evaluateTargets } from '../bench/report/evaluateTargets'
import { renderReport } from '../bench/report/renderReport'
import { type BenchOptions, runBench } from '../bench/runBench'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    orders: { type: 'string' },
    n: { type: 'string' },
    'intake-seconds': { type: 'string' },
    concurrency: { type: 'string' },
    signers: { type: 'string' },
    workers: { type: 'string' },
    'seq-per-signer': { type: 'string' },
    'paced-orders': { type: 'string' },
    'paced-rate': { type: 'string' },
    'submit-concurrency': { type: 'string' },
    'noop-jobs': { type: 'string' },
    'block-time': { type: 'string' },
    'no-profile': { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})
if (values.help) {
  console.log(`usage: npm run bench -- [--quick] [--orders N] [--intake-seconds S] [--concurrency 1,8,32] [--signers 1,2,4]
       [--workers W] [--seq-per-signer K] [--paced-orders M] [--paced-rate R] [--submit-concurrency C]
       [--noop-jobs J] [--block-time S] [--no-profile] [--out FILE]`)
  process.exit(0)
}

const quick = values.quick
const int = (value: string | undefined, def: number, name: string) => {
  if (value === undefined) return def
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${value}`)
  return n
}
const list = (value: string | undefined, def: number[], name: string) =>
  value === undefined ? def : value.split(',').map((v) => int(v.trim(), 0, name))

const options: BenchOptions = {
  quick,
  orders: int(values.orders ?? values.n, quick ? 100 : 1000, 'orders'),
  intakeSeconds: int(values['intake-seconds'], quick ? 3 : 8, 'intake-seconds'),
  concurrencies: list(values.concurrency, [1, 8, 32], 'concurrency'),
  signerCounts: list(values.signers, [1, 2, 4], 'signers'),
  workers: int(values.workers, 1, 'workers'),
  seqPerSigner: int(values['seq-per-signer'], quick ? 3 : 10, 'seq-per-signer'),
  paced: { orders: int(values['paced-orders'], quick ? 30 : 100, 'paced-orders'), perSecond: int(values['paced-rate'], 10, 'paced-rate') },
  submitConcurrency: int(values['submit-concurrency'], 16, 'submit-concurrency'),
  noopJobs: int(values['noop-jobs'], quick ? 60 : 200, 'noop-jobs'),
  blockTime: int(values['block-time'], 1, 'block-time'),
  profile: !values['no-profile'],
}
const out = path.resolve(root, values.out ?? (quick ? '.data/benchmarks-quick.md' : 'docs/benchmarks.md'))
const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ')

const started = performance.now()
const log = (line: string) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)
try {
  const result = await runBench({ root, options, log })
  result.seconds = (performance.now() - started) / 1000
  const targets = evaluateTargets(result)
  mkdirSync(path.dirname(out), { recursive: true })
  writeFileSync(out, renderReport({ result, targets, command }))
  // every figure of the run, for a closer look than the report's (the folder is wiped by the next run)
  const json = JSON.stringify({ command, result, targets }, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)
  writeFileSync(path.join(root, '.data', 'bench', 'result.json'), `${json}\n`)
  console.log('')
  for (const t of targets) console.log(`${t.pass ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}`)
  console.log(`\nbench finished in ${(result.seconds / 60).toFixed(1)} min; report: ${path.relative(root, out)}`)
  process.exit(0)
} catch (error) {
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exit(1)
}
