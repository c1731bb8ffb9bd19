import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { TASK } from '@/lib/jobs/jobKeys'
import { formatLe, labelText } from '@/lib/telemetry/metricRegistry'
import { FAULT_EVENTS, METRIC, type MetricFamilyInfo, TX_SENT_EVENTS } from './metricFamilies'

/** one exposition sample: a sample name (`..._bucket` for a bucket) and its canonical label text */
export type MetricSample = { name: string; labels: string; value: number }

/** [from, to) on the time each fact was recorded; null: unbounded */
export type HistoryWindow = { from: Date | null; to: Date | null }

const COUNTED_EVENTS = [
  'succeeded',
  'failed',
  'dead',
  'replaced',
  'fee_capped',
  'reorged',
  'approved',
  'rejected',
  ...Object.keys(TX_SENT_EVENTS),
  ...FAULT_EVENTS,
]

/**
 * The counter and histogram samples of the facts the history tables recorded in one
 * window of time: job_events by event and task (attempts, dead letters,
 * transactions sent, fee bumps, reorgs, approvals, provider fault counts), mint_orders
 * created, each order's FIRST confirmation and cancellation, webhook POSTs, and the
 * durations: job run time, queue pickup (a job's enqueued to its first start), request
 * to first broadcast, first broadcast to first confirmation. A fact belongs to the window
 * of its own timestamp, so windows that tile time add up to the whole history:
 * lib/ops/foldHistoryMetrics.ts folds the settled past, a scrape adds the recent tail.
 */
export async function countHistoryWindow(
  db: DbOrTx,
  w: HistoryWindow,
  { histograms = true }: { histograms?: boolean } = {},
): Promise<MetricSample[]> {
  const at = (column: SQL) =>
    sql`${w.from ? sql` and ${column} >= ${w.from.toISOString()}::timestamptz` : sql``}${w.to ? sql` and ${column} < ${w.to.toISOString()}::timestamptz` : sql``}`
  const firstIn = (event: string) => sql`(
    select e.order_id, e.at from job_events e
    where e.event = ${event} and e.order_id is not null ${at(sql`e.at`)}
      and not exists (select 1 from job_events p where p.order_id = e.order_id and p.event = ${event} and (p.at, p.id) < (e.at, e.id)))`
  const events = sql.join(
    COUNTED_EVENTS.map((e) => sql`${e}`),
    sql`, `,
  )
  // the histograms are the costly part (a lateral look-up per observation): callers that only need counters skip them
  const [counts, once, webhooks, ...histogramSamples] = await Promise.all([
    db.execute<{ task: string; event: string; n: string; faults: string }>(sql`
      select task, event, count(*)::text as n, coalesce(sum(case when task = 'faults' then (data->>'count')::bigint end), 0)::text as faults
      from job_events where event in (${events}) ${at(sql`at`)} group by task, event`),
    db.execute<{ requested: string; confirmed: string; cancelled: string }>(sql`
      select (select count(*) from mint_orders where true ${at(sql`created_at`)})::text as requested,
        (select count(*) from ${firstIn('confirmed')} c)::text as confirmed,
        (select count(*) from ${firstIn('cancelled')} c)::text as cancelled`),
    db.execute<{ ok: boolean; n: string }>(
      sql`select ok, count(*)::text as n from webhook_delivery_attempts where true ${at(sql`started_at`)} group by ok`,
    ),
    histograms &&
      histogram(
        db,
        METRIC.queuePickupSeconds,
        'task',
        sql`
      select s.task as lbl, extract(epoch from s.at - e.at)::float8 as d
      from job_events s
      join lateral (select min(at) as at from job_events e where e.job_id = s.job_id and e.event = 'enqueued') e on e.at is not null
      where s.event = 'started' and s.attempt = 1 and s.job_id is not null ${at(sql`s.at`)}`,
      ),
    histograms &&
      histogram(
        db,
        METRIC.requestToBroadcastSeconds,
        null,
        sql`
      select '' as lbl, extract(epoch from b.at - o.created_at)::float8 as d
      from ${firstIn('broadcast')} b join mint_orders o on o.id = b.order_id`,
      ),
    histograms &&
      histogram(
        db,
        METRIC.broadcastToConfirmedSeconds,
        null,
        sql`
      select '' as lbl, extract(epoch from c.at - b.at)::float8 as d
      from ${firstIn('confirmed')} c
      join lateral (select min(at) as at from job_events b where b.order_id = c.order_id and b.event = 'broadcast') b on b.at is not null`,
      ),
    histograms &&
      histogram(
        db,
        METRIC.jobRunSeconds,
        'task',
        sql`
      select task as lbl, duration_ms / 1000.0::float8 as d
      from job_events where event in ('succeeded', 'failed') and duration_ms is not null ${at(sql`at`)}`,
      ),
  ])

  const samples: MetricSample[] = []
  const add = (name: string, labels: Record<string, string>, value: number) => {
    if (value !== 0) samples.push({ name, labels: labelText(labels), value })
  }
  const txKinds: Record<string, string> = TX_SENT_EVENTS
  for (const r of counts) {
    const n = Number(r.n)
    if (r.task === 'faults') {
      if ((FAULT_EVENTS as readonly string[]).includes(r.event))
        add(METRIC.faultsTotal.name, { fault: r.event }, Number(r.faults))
      continue
    }
    if (r.event === 'succeeded' || r.event === 'failed')
      add(METRIC.jobAttemptsTotal.name, { outcome: r.event, task: r.task }, n)
    if (r.event === 'dead') add(METRIC.deadLettersTotal.name, { task: r.task }, n)
    if (r.event === 'dead' && r.task === TASK.mintSend) add(METRIC.ordersTotal.name, { outcome: 'failed' }, n)
    if (r.event === 'rejected') add(METRIC.ordersTotal.name, { outcome: 'rejected' }, n)
    if (r.event === 'approved' || r.event === 'rejected') add(METRIC.approvalsTotal.name, { decision: r.event }, n)
    if (r.event === 'replaced') add(METRIC.feeBumpsTotal.name, {}, n)
    if (r.event === 'fee_capped') add(METRIC.feeCappedTotal.name, {}, n)
    if (r.event === 'reorged') add(METRIC.reorgsTotal.name, {}, n)
    const kind = txKinds[r.event]
    if (kind) add(METRIC.transactionsSentTotal.name, { kind }, n)
  }
  const o = once[0]
  add(METRIC.ordersTotal.name, { outcome: 'requested' }, Number(o?.requested ?? 0))
  add(METRIC.ordersTotal.name, { outcome: 'confirmed' }, Number(o?.confirmed ?? 0))
  add(METRIC.ordersTotal.name, { outcome: 'cancelled' }, Number(o?.cancelled ?? 0))
  for (const r of webhooks) add(METRIC.webhookAttemptsTotal.name, { outcome: r.ok ? 'ok' : 'failed' }, Number(r.n))
  return [...mergeSamples(samples), ...histogramSamples.flatMap((h) => h || [])]
}

/** samples of the same series added up (the mapping above can hit one series twice) */
function mergeSamples(samples: MetricSample[]): MetricSample[] {
  const byKey = new Map<string, MetricSample>()
  for (const s of samples) {
    const key = `${s.name}${s.labels}`
    const found = byKey.get(key)
    if (found) found.value += s.value
    else byKey.set(key, { ...s })
  }
  return [...byKey.values()]
}

type Row = { lbl: string; count: string; sum: number; [bucket: `b${number}`]: string }

/**
 * a histogram's samples over its observations `(lbl, d)`: every bucket (cumulative), +Inf, _sum, _count per label value
 */
async function histogram(
  db: DbOrTx,
  info: MetricFamilyInfo,
  label: string | null,
  observations: SQL,
): Promise<MetricSample[]> {
  const buckets = info.buckets ?? []
  // the bounds are our own numeric constants (lib/ops/metricFamilies.ts), never input
  const columns = sql.join(
    buckets.map((le, i) => sql.raw(`count(*) filter (where greatest(x.d, 0) <= ${Number(le)})::text as b${i}`)),
    sql`, `,
  )
  const rows = await db.execute<Row>(sql`
    select x.lbl, count(*)::text as count, coalesce(sum(greatest(x.d, 0)), 0)::float8 as sum, ${columns}
    from (${observations}) x group by x.lbl`)
  const samples: MetricSample[] = []
  for (const r of rows) {
    const labels: Record<string, string> = label ? { [label]: r.lbl } : {}
    for (const [i, le] of buckets.entries()) {
      samples.push({
        name: `${info.name}_bucket`,
        labels: labelText({ ...labels, le: formatLe(le) }),
        value: Number(r[`b${i}`]),
      })
    }
    samples.push({ name: `${info.name}_bucket`, labels: labelText({ ...labels, le: '+Inf' }), value: Number(r.count) })
    samples.push({ name: `${info.name}_sum`, labels: labelText(labels), value: Number(r.sum) })
    samples.push({ name: `${info.name}_count`, labels: labelText(labels), value: Number(r.count) })
  }
  return samples
}
