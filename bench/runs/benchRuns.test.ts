import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BenchResult } from '../BenchResult'
import { evaluateTargets } from '../report/evaluateTargets'
import { renderReport } from '../report/renderReport'
import type { BenchRun } from './BenchRun'
import { BENCH_RUNS } from './benchRuns'

const fixture = path.join(import.meta.dirname, '..', 'report', 'fixtures', 'quickResult.json')
const result = JSON.parse(readFileSync(fixture, 'utf8'), (key, value: unknown) =>
  key === 'startedAt' && typeof value === 'string' ? new Date(value) : value,
) as BenchResult // the bench's own file

const headings = (text: string) => text.split('\n').filter((l) => l.startsWith('## '))

describe('the list of runs', () => {
  it('runs the intake first and the memory peaks after every run of the main stack they cover, each name once', () => {
    const names = BENCH_RUNS.map((r) => r.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names[0]).toBe('intake, worker idle')
    const main = BENCH_RUNS.filter((r) => r.stack === 'main').map((r) => r.name)
    expect(main.indexOf('memory peaks')).toBe(main.indexOf('bar-list import') - 1)
    expect(BENCH_RUNS.filter((r) => r.stack === 'own').map((r) => r.name)).toEqual(['SQS drain', 'a year of history'])
  })

  it("draws the sections in the report's order, whatever order they run in", () => {
    const text = renderReport({ result, targets: evaluateTargets(result), command: 'npm run bench -- --quick' })
    expect(headings(text).map((h) => h.slice(0, 12))).toEqual([
      '## Targets',
      '## 1. The dr',
      '## 2. Under ',
      '## 3. Intake',
      '## 4. Memory',
      '## 5. Bar-li',
      '## 5b. Audit',
      '## 6. Queue ',
      '## 7. Tracin',
      '## 8. Burn d',
      '## 9. A year',
      '## Notes on ',
      '## CPU profi',
      '## How each ',
    ])
  })

  it('stocks as many mint bodies as the runs it enables send', () => {
    const o = { ...result.options, auditRows: 0, burns: 0 }
    const total = BENCH_RUNS.filter((r) => r.enabled(o)).reduce((n, r) => n + (r.mintBodies?.(o) ?? 0), 0)
    const drains = o.signerCounts.length * o.workerCounts.length
    const tracing = 2 * o.tracingOrders + 2 * (o.intakeSeconds + 3) * 1500
    expect(total).toBe((o.concurrencies.length + 1) * 2 * o.intakeSeconds * 1500 + drains * o.orders + 3000 + tracing)
  })

  it('takes a new run with its module and one line: its section, its targets and its method in place', () => {
    const yearRun: BenchRun<never> = {
      name: 'a decade of history',
      section: 10,
      stack: 'main',
      enabled: () => true,
      run: async () => ({}),
      render: ({ line }) => {
        line('## 10. A decade of history')
        line()
      },
      targets: () => [{ name: 'A decade of history: the dashboard in < 1 s', measured: '0.4 s', pass: true }],
      method: ['A decade of history: rows written in one statement.'],
    }
    const runs = [...BENCH_RUNS, yearRun]
    const targets = evaluateTargets(result, runs)
    expect(targets.at(-1)?.name).toBe('A decade of history: the dashboard in < 1 s')
    const text = renderReport({ result, targets, command: 'npm run bench -- --quick', runs })
    const list = headings(text)
    expect(list.indexOf('## 10. A decade of history')).toBe(list.findIndex((h) => h.startsWith('## 9.')) + 1)
    expect(text).toContain('| A decade of history: the dashboard in < 1 s | 0.4 s | PASS |')
    expect(text.trimEnd().endsWith('- A decade of history: rows written in one statement.')).toBe(true)
  })
})
