import type { Db } from '@/db/client'
import { TASK } from '@/lib/jobs/jobKeys'
import type { MetricSample } from '@/lib/ops/countHistoryWindow'
import { listHistoryTotals } from '@/lib/ops/listHistoryTotals'
import { FAULT_EVENTS, METRIC, TX_SENT_EVENTS } from '@/lib/ops/metricFamilies'
import type { ExpositionFamily, ExpositionSample } from './formatExposition'
import { listProcessSeries, parseLabelText } from './listProcessSeries'

const SUFFIXES = ['', '_bucket', '_sum', '_count'] as const

/** the series every scrape shows, 0 until something happens, so rate() has a series from the start */
const ZERO_SERIES: Record<string, Record<string, string>[]> = {
  [METRIC.ordersTotal.name]: ['requested', 'confirmed', 'failed', 'rejected', 'cancelled'].map((outcome) => ({
    outcome,
  })),
  [METRIC.jobAttemptsTotal.name]: [TASK.mintSend, TASK.orderConfirm].flatMap((task) =>
    ['succeeded', 'failed'].map((outcome) => ({ outcome, task })),
  ),
  [METRIC.deadLettersTotal.name]: [TASK.mintSend, TASK.orderConfirm].map((task) => ({ task })),
  [METRIC.transactionsSentTotal.name]: Object.values(TX_SENT_EVENTS).map((kind) => ({ kind })),
  [METRIC.feeBumpsTotal.name]: [{}],
  [METRIC.feeCappedTotal.name]: [{}],
  [METRIC.reorgsTotal.name]: [{}],
  [METRIC.approvalsTotal.name]: ['approved', 'rejected'].map((decision) => ({ decision })),
  [METRIC.faultsTotal.name]: FAULT_EVENTS.map((fault) => ({ fault })),
  [METRIC.webhookAttemptsTotal.name]: ['ok', 'failed'].map((outcome) => ({ outcome })),
  [METRIC.kmsRequestsTotal.name]: [{ operation: 'Sign', outcome: 'ok' }],
}

/**
 * Every counter and histogram family of GET /api/metrics, in the order of
 * lib/ops/metricFamilies.ts: the history's totals (folded + the recent tail) and the
 * per-process series summed over processes. Known series are present at 0 from the start;
 * a histogram's samples go bucket by bucket, +Inf, _sum, _count per label set.
 */
export async function listCounterFamilies(db: Db): Promise<ExpositionFamily[]> {
  const [history, processSeries] = await Promise.all([listHistoryTotals(db), listProcessSeries(db)])
  const samples: MetricSample[] = [...history, ...processSeries]
  return Object.values(METRIC).map((info) => {
    const own: ExpositionSample[] = []
    for (const s of samples) {
      const suffix = SUFFIXES.find((x) => s.name === `${info.name}${x}`)
      if (suffix === undefined || (info.type === 'counter') !== (suffix === '')) continue
      own.push({ suffix, labels: parseLabelText(s.labels), value: s.value })
    }
    for (const labels of ZERO_SERIES[info.name] ?? []) {
      const key = JSON.stringify(Object.entries(labels).sort())
      if (!own.some((s) => JSON.stringify(Object.entries(s.labels ?? {}).sort()) === key))
        own.push({ suffix: '', labels, value: 0 })
    }
    own.sort(compareSamples)
    return { name: info.name, help: info.help, type: info.type, samples: own }
  })
}

/** by label set (without le), then buckets by bound, +Inf, _sum, _count */
function compareSamples(a: ExpositionSample, b: ExpositionSample): number {
  const [ka, wa] = sortKey(a)
  const [kb, wb] = sortKey(b)
  return ka < kb ? -1 : ka > kb ? 1 : wa - wb
}

function sortKey(s: ExpositionSample): [string, number] {
  const { le, ...rest } = s.labels ?? {}
  const within =
    s.suffix === '_bucket'
      ? le === '+Inf'
        ? 1e300
        : Number(le)
      : s.suffix === '_sum'
        ? 2e300
        : s.suffix === '_count'
          ? 3e300
          : 0
  return [JSON.stringify(Object.entries(rest).sort()), within]
}
