import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BenchResult } from '../BenchResult'
import { evaluateTargets } from './evaluateTargets'
import { renderReport } from './renderReport'

// A short run's figures (npm run bench -- --quick, trimmed), as .data/bench/result.json holds them; its `sqs` and
// `tracing` rows come from a later quick run.
const fixture = path.join(import.meta.dirname, 'fixtures', 'quickResult.json')
const result = JSON.parse(readFileSync(fixture, 'utf8'), (key, value: unknown) =>
  key === 'startedAt' && typeof value === 'string' ? new Date(value) : value,
) as BenchResult // the bench's own file

describe('the bench report', () => {
  const targets = evaluateTargets(result)

  it("holds issue 14's targets, each with a result, and a note for each miss", () => {
    expect(targets.map((t) => t.name)).toEqual([
      "Drain of 200, 1 signer, 1 worker: >= 0.5x the node's raw limit",
      'Drain of 200, 4 signers, 1 worker: >= 2x the 1 signer rate or >= 0.8x the raw limit',
      'CPU per confirmed order, drain, 1 signer: <= 15 ms (all processes)',
      'CPU per confirmed order, drain, 4 signers: <= 15 ms (all processes)',
      'Under capacity (7/s = half of 14.1/s): committed -> broadcast p50 <= 25 ms',
      'Under capacity (7/s = half of 14.1/s): committed -> broadcast p99 <= 100 ms',
      'Under capacity (7/s = half of 14.1/s): broadcast -> confirmed within one block + one poll (1500 ms), p99',
      'Intake at 32 clients, worker idle: >= 0.5x the raw-SQL rate',
      'Intake at 32 clients, worker running beside it (reported, same pair)',
      'Worker peak RSS < 150 MB, as shipped (NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=96" MALLOC_ARENA_MAX=2 node worker.mjs)',
      'Web peak RSS < 300 MB, as shipped (node server.js)',
      "SQS transport (QUEUE_TRANSPORT=sqs), drain of 200, 1 signer, 1 worker: CPU/order without the SQS endpoint at most 1.3x graphile-worker's",
      "SQS transport (QUEUE_TRANSPORT=sqs), drain of 200, 1 signer, 1 worker: drain rate at least 0.8x graphile-worker's",
      'SQS transport (QUEUE_TRANSPORT=sqs), drain of 200, 1 signer, 1 worker: Postgres statements per order at most 5',
      'Tracing off vs on (OTLP export to a local receiver), drain of 200, 1 signer, 1 worker, and the intake (reported)',
    ])
    for (const t of targets) {
      if (t.pass === false) expect(t.note?.bound, t.name).toBeTruthy()
      if (t.pass !== false) expect(t.note, t.name).toBeUndefined()
    }
    expect(targets.find((t) => t.name.startsWith('Intake at 32 clients, worker running'))?.pass).toBeNull()
    expect(targets.find((t) => t.name.startsWith('Worker peak RSS'))?.pass).toBe(true)
    // the fixture's SQS drain (the one-by-one path): 2.73x the CPU per order, a slower drain, over 5 statements
    expect(targets.filter((t) => t.name.startsWith('SQS transport')).map((t) => t.pass)).toEqual([false, false, false])
    expect(targets.find((t) => t.name.startsWith('Tracing off vs on'))?.pass).toBeNull()
  })

  it('reports the SQS row beside the graphile row, its endpoint counted, and tracing off and on per process', () => {
    const sqs = targets.filter((t) => t.name.startsWith('SQS transport')).map((t) => t.measured)
    expect(sqs[0]).toMatch(
      /^\d+\.\d ms \(worker \d+\.\d, postgres \d+\.\d; the SQS endpoint's own \d+\.\d ms apart\) vs \d+\.\d ms: \d+\.\d\dx vs graphile-worker's drain of 200$/,
    )
    expect(sqs[1]).toMatch(/^\d+\.\d+\/s vs 14\.1\/s: \d+\.\d\dx vs graphile-worker's drain of 200$/)
    expect(sqs[2]).toMatch(/^\d+\.\d \(graphile-worker \d+\.\d\)$/)
    const tracing = targets.find((t) => t.name.startsWith('Tracing off vs on'))
    expect(tracing?.measured).toMatch(
      /^CPU\/order \d+\.\d -> \d+\.\d ms \(worker \d+\.\d -> \d+\.\d\); web CPU\/request \d+\.\d\d -> \d+\.\d\d ms$/,
    )
    const text = renderReport({ result, targets, command: 'npm run bench -- --quick' })
    const section = (heading: string) =>
      text.slice(text.indexOf(heading), text.indexOf('\n## ', text.indexOf(heading) + 1))
    const six = section('## 6. Queue transport: SQS beside graphile-worker')
    expect(six).toContain('| sqs ms |')
    // the graphile row has no SQS endpoint ('-'), the SQS row has one
    // beside the graphile drain of the same size (section 1's row here), whose stack has no SQS endpoint ('-')
    expect(six).toMatch(/^\| graphile-worker \(section 1\) \| 200 \| 14\.1 \|.* \| - \| [\d.]+ \|/m)
    expect(six).toMatch(/^\| SQS \| 200 \| 3\.27 \|.* \| \d+\.\d \| [\d.]+ \|/m)
    expect(six).toContain('| step (p50 / p99 ms) | graphile-worker | SQS |')
    const seven = section('## 7. Tracing off and on')
    expect(seven).toMatch(/^\| tracing off \| [\d.]+ \| \d+\.\d \|/m)
    expect(seven).toMatch(/^\| tracing on \| [\d.]+ \| \d+\.\d \|/m)
    expect(seven).toContain('| intake | req/s | p50 / p99 ms | web CPU ms/req (event loop) |')
    expect(seven).toMatch(/Tracing on costs the worker -?\d+\.\d ms of CPU per confirmed order/)
  })

  it('says so when a run leaves the SQS row and the tracing comparison out', () => {
    const { sqs: _sqs, tracing: _tracing, ...rest } = result
    const without: BenchResult = { ...rest, options: { ...result.options, sqsOrders: 0, tracingOrders: 0 } }
    const text = renderReport({
      result: without,
      targets: evaluateTargets(without),
      command: 'npm run bench -- --quick --sqs-orders 0 --tracing-orders 0',
    })
    expect(text).toContain('Not measured in this run (`--sqs-orders 0`).')
    expect(text).toContain('Not measured in this run (`--tracing-orders 0`).')
    expect(text).not.toContain('SQS transport (QUEUE_TRANSPORT=sqs)')
  })

  it('charges the CPU of a drain to the stack processes, per confirmed order', () => {
    const cpu = targets.find((t) => t.name.startsWith('CPU per confirmed order, drain, 1 signer'))
    expect(cpu?.measured).toMatch(
      /^\d+\.\d ms \(worker \d+\.\d, postgres \d+\.\d, anvil \d+\.\d, kms \d+\.\d, web \d+\.\d\)$/,
    )
  })

  it('renders the targets table, the scaling table, the sections and the notes', () => {
    const text = renderReport({ result, targets, command: 'npm run bench -- --quick' })
    expect(text).toContain('| target | measured | result |')
    expect(text).toMatch(
      /\| Worker peak RSS < 150 MB, as shipped .* \| 127 MB \(VmHWM of the largest process\) \| PASS \|/,
    )
    expect(text).toContain(
      '| Intake at 32 clients, worker running beside it (reported, same pair) | 26.3/s vs 67.3/s = 0.39 | reported |',
    )
    for (const heading of [
      '## 1. The drain',
      '## 2. Under capacity',
      '## 3. Intake',
      '## 4. Memory, as shipped',
      '## 5. Bar-list import',
      '## 6. Queue transport',
      '## 7. Tracing off and on',
      '## Notes on missed targets',
      '## How each number is measured',
    ]) {
      expect(text).toContain(heading)
    }
    // one row per drain: signers, workers, rate
    expect(text).toMatch(/^\| 1 \| 1 \| 14\.1 \| 0\.07 \|/m)
    expect(text).toMatch(/^\| 4 \| 1 \| 10\.8 \| 0\.05 \|/m)
    expect(text).not.toContain('NaN')
  })
})
