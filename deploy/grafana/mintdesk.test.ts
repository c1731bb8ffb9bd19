import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { METRIC } from '@/lib/ops/metricFamilies'

// The Grafana dashboard is built on the series GET /api/metrics exposes: every
// series it queries exists (a renamed family breaks this test, not the on-call's
// dashboard), every counter and histogram family is on it, and it imports cleanly.

const root = path.resolve(import.meta.dirname, '..', '..')
type Panel = {
  id: number
  type: string
  title: string
  targets?: { expr: string; refId: string }[]
  datasource?: { uid: string }
}
const dashboard = JSON.parse(readFileSync(path.join(root, 'deploy/grafana/mintdesk.json'), 'utf8')) as {
  uid: string
  title: string
  panels: Panel[]
}
const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr))

/**
 * the gauge families, as lib/web/ops/snapshotGauges.ts and (QUEUE_TRANSPORT=sqs) lib/web/queue/sqsGauges.ts name them
 */
const gauges = ['lib/web/ops/snapshotGauges.ts', 'lib/web/queue/sqsGauges.ts'].flatMap((file) =>
  [...readFileSync(path.join(root, file), 'utf8').matchAll(/name: '(mintdesk_[a-z_]+)'/g)].map((m) => m[1] ?? ''),
)
const families = Object.values(METRIC)
const series = new Set([
  ...gauges,
  ...families.flatMap((f) =>
    f.type === 'histogram' ? [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`] : [f.name],
  ),
])

describe('deploy/grafana/mintdesk.json', () => {
  it('queries only series that GET /api/metrics exposes', () => {
    expect(gauges.length).toBeGreaterThan(10)
    const used = new Set(exprs.flatMap((e) => [...e.matchAll(/\bmintdesk_[a-z_]+/g)].map((m) => m[0])))
    expect([...used].filter((name) => !series.has(name))).toEqual([])
  })

  it('shows every counter and histogram family, histograms as quantiles of their buckets', () => {
    for (const f of families) {
      const name = f.type === 'histogram' ? `${f.name}_bucket` : f.name
      expect(
        exprs.some((e) => e.includes(name)),
        f.name,
      ).toBe(true)
    }
    for (const e of exprs.filter((x) => x.includes('_bucket')))
      expect(e).toMatch(/^histogram_quantile\(0\.\d+, max by \(le[^)]*\) \(rate\(/)
    // counters only through rate() or increase(): a raw counter on a panel means nothing
    for (const f of families.filter((x) => x.type === 'counter')) {
      for (const e of exprs.filter((x) => x.includes(f.name)))
        expect(e, e).toMatch(new RegExp(`(rate|increase)\\(${f.name}`))
    }
  })

  it('never sums the replicas: the totals are the same on every web replica', () => {
    for (const e of exprs) expect(e, e).not.toMatch(/^sum\(|^sum by/)
  })

  it('imports cleanly: unique panel ids, a datasource variable, a uid', () => {
    const ids = dashboard.panels.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(dashboard.uid).toBe('mintdesk')
    for (const p of dashboard.panels.filter((x) => x.type !== 'row'))
      expect(p.datasource?.uid, p.title).toBe('${datasource}')
  })
})
