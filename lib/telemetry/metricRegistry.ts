/**
 * The counters and histograms this process measures itself (KMS calls, Sign time, intake
 * latency): cumulative values in memory, flushed to `metric_series` by
 * lib/ops/flushMetricSeries.ts and summed over every process by GET /api/metrics. One
 * registry per process (module state): the KMS middleware and the route wrapper record
 * into it without being handed anything.
 */

/** the histogram buckets in seconds (upper bounds, +Inf implied) */
export type Buckets = readonly number[]

type Series = { name: string; labels: string; value: number }

type HistogramState = { buckets: Buckets; counts: number[]; sum: number; count: number }

const counters = new Map<string, Series>()
const histograms = new Map<string, { name: string; labels: Record<string, string>; state: HistogramState }>()
let version = 0

/** Adds n (default 1) to a counter; a `_total` name. */
export function incrementCounter(name: string, labels: Record<string, string> = {}, n = 1): void {
  if (!(n >= 0)) return
  const text = labelText(labels)
  const key = `${name}${text}`
  const found = counters.get(key)
  if (found) found.value += n
  else counters.set(key, { name, labels: text, value: n })
  version++
}

/** Records one observation (seconds) in a histogram; its buckets are fixed by the first call. */
export function observeHistogram(
  name: string,
  buckets: Buckets,
  seconds: number,
  labels: Record<string, string> = {},
): void {
  if (!Number.isFinite(seconds) || seconds < 0) return
  const key = `${name}${labelText(labels)}`
  let h = histograms.get(key)
  if (!h) {
    h = { name, labels, state: { buckets, counts: buckets.map(() => 0), sum: 0, count: 0 } }
    histograms.set(key, h)
  }
  const { state } = h
  for (let i = 0; i < state.buckets.length; i++) {
    if (seconds <= (state.buckets[i] ?? Number.POSITIVE_INFINITY)) state.counts[i] = (state.counts[i] ?? 0) + 1
  }
  state.sum += seconds
  state.count += 1
  version++
}

/** Every series of this process as exposition samples (histograms as cumulative _bucket, _sum, _count). */
export function snapshotMetricSeries(): { version: number; series: Series[] } {
  const series: Series[] = [...counters.values()].map((s) => ({ ...s }))
  for (const { name, labels, state } of histograms.values()) {
    state.buckets.forEach((le, i) => {
      series.push({
        name: `${name}_bucket`,
        labels: labelText({ ...labels, le: formatLe(le) }),
        value: state.counts[i] ?? 0,
      })
    })
    series.push({ name: `${name}_bucket`, labels: labelText({ ...labels, le: '+Inf' }), value: state.count })
    series.push({ name: `${name}_sum`, labels: labelText(labels), value: state.sum })
    series.push({ name: `${name}_count`, labels: labelText(labels), value: state.count })
  }
  return { version, series }
}

/** The labels as exposition text, sorted by name, escaped; '' for none. */
export function labelText(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort()
  if (keys.length === 0) return ''
  return `{${keys.map((k) => `${k}="${escapeLabel(labels[k] ?? '')}"`).join(',')}}`
}

/** a bucket bound as Prometheus writes it: 0.5, 1, 2.5 */
export function formatLe(le: number): string {
  return Number.isFinite(le) ? String(le) : '+Inf'
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
}
