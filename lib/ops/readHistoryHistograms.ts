import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { formatLe } from '@/lib/telemetry/metricRegistry'
import type { ExpositionFamily, ExpositionSample } from './formatExposition'
import { METRIC, type MetricFamilyInfo } from './metricFamilies'

/**
 * The histograms whose observations are timestamps and run times the history tables
 * already hold (decision 020): job run time (job_events.duration_ms), queue pickup (a
 * job's 'enqueued' to its first 'started'), request to broadcast (mint_orders.created_at
 * to the first 'broadcast') and broadcast to confirmed (first 'broadcast' to first
 * 'confirmed'). Buckets are counted in SQL, cumulative, +Inf equal to _count.
 */
export async function readHistoryHistograms(db: DbOrTx): Promise<ExpositionFamily[]> {
  const firstAt = (event: string) => sql`(select order_id, min(at) as at from job_events where event = ${event} and order_id is not null group by order_id)`
  return Promise.all([
    histogram(db, METRIC.queuePickupSeconds, 'task', sql`
      select s.task as lbl, extract(epoch from s.at - e.at)::float8 as d
      from job_events s
      join lateral (select min(at) as at from job_events e where e.job_id = s.job_id and e.event = 'enqueued') e on e.at is not null
      where s.event = 'started' and s.attempt = 1 and s.job_id is not null`),
    histogram(db, METRIC.requestToBroadcastSeconds, null, sql`
      select '' as lbl, extract(epoch from b.at - o.created_at)::float8 as d
      from mint_orders o join ${firstAt('broadcast')} b on b.order_id = o.id`),
    histogram(db, METRIC.broadcastToConfirmedSeconds, null, sql`
      select '' as lbl, extract(epoch from c.at - b.at)::float8 as d
      from ${firstAt('broadcast')} b join ${firstAt('confirmed')} c on c.order_id = b.order_id`),
    histogram(db, METRIC.jobRunSeconds, 'task', sql`
      select task as lbl, duration_ms / 1000.0::float8 as d
      from job_events where event in ('succeeded', 'failed') and duration_ms is not null`),
  ])
}

type Row = { lbl: string; count: string; sum: number; [bucket: `b${number}`]: string }

async function histogram(db: DbOrTx, info: MetricFamilyInfo, label: string | null, observations: SQL): Promise<ExpositionFamily> {
  const buckets = info.buckets ?? []
  // the bounds are our own numeric constants (lib/ops/metricFamilies.ts), never input
  const columns = sql.join(
    buckets.map((le, i) => sql.raw(`count(*) filter (where greatest(x.d, 0) <= ${Number(le)})::text as b${i}`)),
    sql`, `,
  )
  const rows = await db.execute<Row>(sql`
    select x.lbl, count(*)::text as count, coalesce(sum(greatest(x.d, 0)), 0)::float8 as sum, ${columns}
    from (${observations}) x group by x.lbl order by x.lbl`)
  const samples: ExpositionSample[] = []
  for (const r of rows) {
    const labels: Record<string, string> = label ? { [label]: r.lbl } : {}
    buckets.forEach((le, i) => samples.push({ suffix: '_bucket', labels: { ...labels, le: formatLe(le) }, value: Number(r[`b${i}`]) }))
    samples.push({ suffix: '_bucket', labels: { ...labels, le: '+Inf' }, value: Number(r.count) })
    samples.push({ suffix: '_sum', labels, value: Number(r.sum) })
    samples.push({ suffix: '_count', labels, value: Number(r.count) })
  }
  return { name: info.name, help: info.help, type: info.type, samples }
}
