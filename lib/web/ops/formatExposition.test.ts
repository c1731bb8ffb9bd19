import { describe, expect, it } from 'vitest'
import { METRIC } from '@/lib/ops/metricFamilies'
import { incrementCounter, observeHistogram, snapshotMetricSeries } from '@/lib/telemetry/metricRegistry'
import { parsePrometheusText } from '@/tests/helpers/parsePrometheusText'
import { formatExposition } from './formatExposition'
import { parseLabelText } from './listProcessSeries'

describe('the strict exposition reader (tests/helpers/parsePrometheusText)', () => {
  const ok =
    '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 3\n# HELP h H.\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3.5\nh_count 2\n'
  it('reads a good exposition', () => {
    const f = parsePrometheusText(ok)
    expect(f.get('a_total')?.type).toBe('counter')
    expect(f.get('h')?.samples).toHaveLength(4)
  })
  it.each([
    ['HELP twice', '# HELP a A.\n# HELP a A.\n# TYPE a gauge\na 1\n'],
    ['TYPE twice', '# TYPE a gauge\n# TYPE a gauge\na 1\n'],
    ['TYPE after samples', 'a 1\n# TYPE a gauge\n'],
    ['a family split', '# TYPE a gauge\n# TYPE b gauge\na 1\nb 1\na{x="2"} 1\n'],
    ['a series twice', '# TYPE a gauge\na{x="1"} 1\na{x="1"} 2\n'],
    ['a negative counter', '# TYPE a_total counter\na_total -1\n'],
    ['a bad escape', '# TYPE a gauge\na{x="\\t"} 1\n'],
    ['a bad value', '# TYPE a gauge\na 0x10\n'],
    ['no +Inf bucket', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n'],
    ['+Inf not _count', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n'],
    [
      'buckets not cumulative',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="2"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 2\n',
    ],
    ['no trailing newline', '# TYPE a gauge\na 1'],
  ])('refuses %s', (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow()
  })
})

describe('formatExposition and the process registry', () => {
  it('writes counters, gauges and histograms that the strict reader accepts, +Inf equal to _count', () => {
    for (const s of [0.001, 0.02, 0.3, 0.3, 7, 120])
      observeHistogram(METRIC.kmsSignSeconds.name, METRIC.kmsSignSeconds.buckets, s)
    incrementCounter(METRIC.kmsRequestsTotal.name, { operation: 'Sign', outcome: 'ok' }, 6)
    incrementCounter(METRIC.kmsRequestsTotal.name, { operation: 'Sign', outcome: 'throttled' })
    const { series } = snapshotMetricSeries()
    const family = (info: { name: string; help: string; type: 'counter' | 'histogram' }) => ({
      name: info.name,
      help: info.help,
      type: info.type,
      samples: series
        .filter(
          (s) =>
            s.name === info.name ||
            (info.type === 'histogram' && ['_bucket', '_sum', '_count'].some((x) => s.name === `${info.name}${x}`)),
        )
        .map((s) => ({
          suffix: s.name.slice(info.name.length) as '' | '_bucket' | '_sum' | '_count',
          labels: parseLabelText(s.labels),
          value: s.value,
        })),
    })
    const text = formatExposition([
      {
        name: 'mintdesk_dead_letters',
        help: 'Dead letters now.',
        type: 'gauge',
        samples: [{ value: 0 }, { labels: { x: 'unknown' }, value: null }],
      },
      family(METRIC.kmsRequestsTotal),
      family(METRIC.kmsSignSeconds),
    ])
    const parsed = parsePrometheusText(text)
    const h = parsed.get(METRIC.kmsSignSeconds.name)
    expect(h?.type).toBe('histogram')
    const inf = h?.samples.find((s) => s.labels.le === '+Inf')?.value
    const count = h?.samples.find((s) => s.name.endsWith('_count'))?.value
    expect(inf).toBe(6)
    expect(count).toBe(6)
    expect(h?.samples.find((s) => s.labels.le === '0.5')?.value).toBe(4)
    expect(parsed.get(METRIC.kmsRequestsTotal.name)?.samples.map((s) => [s.labels.outcome, s.value])).toEqual([
      ['ok', 6],
      ['throttled', 1],
    ])
    expect(text).not.toContain('unknown')
  })
})
