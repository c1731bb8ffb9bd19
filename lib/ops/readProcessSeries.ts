import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ExpositionFamily, ExpositionSample } from './formatExposition'
import { METRIC } from './metricFamilies'

/** the families whose series the processes measure themselves and flush to metric_series */
const SUFFIXES = ['', '_bucket', '_sum', '_count'] as const

const PROCESS_FAMILIES = [METRIC.kmsRequestsTotal, METRIC.intakeSeconds, METRIC.kmsSignSeconds]

/**
 * The counters and histograms measured in process (KMS calls and Sign time, intake
 * latency), summed over the metric_series rows of every process that ever ran (decision
 * 020): a restart adds a process's rows instead of resetting a series, and every web
 * replica answers the same sums. A histogram's buckets add up bucket by bucket (all
 * processes share the bounds of lib/ops/metricFamilies.ts).
 */
export async function readProcessSeries(db: DbOrTx): Promise<ExpositionFamily[]> {
  const rows = await db.execute<{ name: string; labels: string; value: number }>(sql`
    select name, labels, sum(value)::float8 as value from metric_series group by name, labels order by name, labels`)
  return PROCESS_FAMILIES.map((info) => {
    const samples: ExpositionSample[] = []
    for (const r of rows) {
      if (!r.name.startsWith(info.name)) continue
      const suffix = SUFFIXES.find((x) => r.name === `${info.name}${x}`)
      if (suffix === undefined || (info.type === 'counter') !== (suffix === '')) continue
      samples.push({ suffix, labels: parseLabelText(r.labels), value: r.value })
    }
    if (info.type === 'histogram') samples.sort(compareSamples)
    return { name: info.name, help: info.help, type: info.type, samples }
  })
}

/** `{a="x",le="0.5"}` (as lib/telemetry/metricRegistry.ts writes it) back to an object */
export function parseLabelText(text: string): Record<string, string> {
  const labels: Record<string, string> = {}
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g
  for (const m of text.matchAll(re)) {
    labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
  }
  return labels
}

/** per label set: buckets by bound, +Inf, then _sum and _count */
function compareSamples(a: ExpositionSample, b: ExpositionSample): number {
  const [ka, wa] = sortKey(a)
  const [kb, wb] = sortKey(b)
  return ka < kb ? -1 : ka > kb ? 1 : wa - wb
}

function sortKey(s: ExpositionSample): [string, number] {
  const { le, ...rest } = s.labels ?? {}
  const within = s.suffix === '_bucket' ? (le === '+Inf' ? 1e300 : Number(le)) : s.suffix === '_sum' ? 2e300 : 3e300
  return [JSON.stringify(Object.entries(rest).sort()), within]
}
