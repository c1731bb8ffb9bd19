import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BenchResult } from '../BenchResult'
import type { HistoryResult } from '../history/runHistory'
import { evaluateTargets } from '../report/evaluateTargets'
import { renderReport } from '../report/renderReport'
import { historyRun } from './historyRun'

const fixture = path.join(import.meta.dirname, '..', 'report', 'fixtures', 'quickResult.json')
const base = JSON.parse(readFileSync(fixture, 'utf8'), (key, value: unknown) =>
  key === 'startedAt' && typeof value === 'string' ? new Date(value) : value,
) as BenchResult

const route = (name: string, kind: 'admin' | 'reserves' | 'lookup', p95Ms: number, plans: string[] = []) => ({
  name,
  kind,
  calls: 30,
  p50Ms: p95Ms / 2,
  p95Ms,
  maxMs: p95Ms * 1.5,
  answered: true,
  plans,
})

const history: HistoryResult = {
  scale: 1,
  counts: { mint_orders: 999_833 },
  seedSeconds: null,
  seededAt: '2026-12-07T06:31Z',
  reusedDataDir: '/tmp/hist/full',
  routes: [
    route('GET /api/admin/jobs', 'admin', 43.7),
    route('GET /api/reserves (database part)', 'reserves', 120, [
      'Seq Scan on vault_bars b  (cost=0.00..1.00 rows=1 width=8) (actual time=0.1..90.0 rows=200000 loops=1)',
    ]),
  ],
  samples: {} as HistoryResult['samples'],
}

describe('the history run in the bench', () => {
  it('is measured at the options it is given: a scale, or a seeded directory', () => {
    const o = base.options
    expect(historyRun.enabled({ ...o, historyScale: 0, historyData: null })).toBe(false)
    expect(historyRun.enabled({ ...o, historyScale: 0.01, historyData: null })).toBe(true)
    expect(historyRun.enabled({ ...o, historyScale: 0, historyData: '/tmp/hist/full' })).toBe(true)
  })

  it('says it reused a seed and when it was seeded, and holds each route to its target with the why of a miss', () => {
    const result = { ...base, history }
    const targets = evaluateTargets(result)
    const rows = targets.filter((t) => t.name.startsWith('A year of history'))
    expect(rows.map((t) => [t.name, t.pass])).toEqual([
      ['A year of history: GET /api/admin/jobs p95 <= 200 ms', true],
      ['A year of history: GET /api/reserves (database part) p95 <= 50 ms', false],
    ])
    expect(rows[1]?.note?.bound).toContain('200,000 rows')
    const text = renderReport({ result, targets, command: 'npm run bench -- --history-data /tmp/hist/full' })
    expect(text).toContain('## 9. A year of history')
    expect(text).toContain('by an earlier run (2026-12-07T06:31Z), its seed reused from `/tmp/hist/full`')
    expect(text).toContain('| GET /api/admin/jobs | 21.9 | 43.7 | 200 | PASS |')
    expect(text).toContain('- A year of history: a year of a busy desk')
  })

  it('draws its section as not measured when it did not run', () => {
    const text = renderReport({ result: base, targets: evaluateTargets(base), command: 'npm run bench -- --quick' })
    const at = text.indexOf('## 9. A year of history')
    expect(text.slice(at).split('\n')[2]).toBe('Not measured in this run.')
  })
})
