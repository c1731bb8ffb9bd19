import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ExpositionFamily } from './formatExposition'
import { FAULT_EVENTS, METRIC, TX_SENT_EVENTS } from './metricFamilies'

type EventCount = { task: string; event: string; n: string; faults: string }

const COUNTED_EVENTS = ['succeeded', 'failed', 'dead', 'replaced', 'fee_capped', 'reorged', 'approved', 'rejected', ...Object.keys(TX_SENT_EVENTS), ...FAULT_EVENTS]
const TASKS = ['mint_send', 'mint_confirm']

/**
 * The counters that the history tables already hold (decision 020): every attempt,
 * broadcast, fee bump, reorg, dead letter and approval is a job_events row, every order a
 * mint_orders row, every webhook POST a webhook_delivery_attempts row. Counting them is
 * exact, the same on every replica, and survives any restart: the rows stay.
 */
export async function readHistoryCounters(db: DbOrTx): Promise<ExpositionFamily[]> {
  const eventList = sql.join(
    COUNTED_EVENTS.map((e) => sql`${e}`),
    sql`, `,
  )
  const [events, orders, webhooks] = await Promise.all([
    db.execute<EventCount>(sql`
      select task, event, count(*)::text as n, coalesce(sum(case when task = 'faults' then (data->>'count')::bigint end), 0)::text as faults
      from job_events where event in (${eventList}) group by task, event`),
    db.execute<{ requested: string; confirmed: string; cancelled: string }>(sql`
      select (select count(*) from mint_orders)::text as requested,
        (select count(distinct order_id) from job_events where event = 'confirmed')::text as confirmed,
        (select count(distinct order_id) from job_events where event = 'cancelled' and order_id is not null)::text as cancelled`),
    db.execute<{ ok: boolean; n: string }>(sql`select ok, count(*)::text as n from webhook_delivery_attempts group by ok`),
  ])
  const rows = [...events]
  const total = (event: string, task?: string) =>
    rows.filter((r) => r.event === event && r.task !== 'faults' && (task === undefined || r.task === task)).reduce((a, r) => a + Number(r.n), 0)
  const tasksWith = (...names: string[]) => [...new Set([...TASKS, ...rows.filter((r) => names.includes(r.event) && r.task !== 'faults').map((r) => r.task)])].sort()
  const o = orders[0]
  const w = [...webhooks]

  return [
    {
      ...family(METRIC.ordersTotal),
      samples: [
        { labels: { outcome: 'requested' }, value: Number(o?.requested ?? 0) },
        { labels: { outcome: 'confirmed' }, value: Number(o?.confirmed ?? 0) },
        { labels: { outcome: 'failed' }, value: total('dead', 'mint_send') },
        { labels: { outcome: 'rejected' }, value: total('rejected') },
        { labels: { outcome: 'cancelled' }, value: Number(o?.cancelled ?? 0) },
      ],
    },
    {
      ...family(METRIC.jobAttemptsTotal),
      samples: tasksWith('succeeded', 'failed').flatMap((task) => [
        { labels: { task, outcome: 'succeeded' }, value: total('succeeded', task) },
        { labels: { task, outcome: 'failed' }, value: total('failed', task) },
      ]),
    },
    { ...family(METRIC.deadLettersTotal), samples: tasksWith('dead').map((task) => ({ labels: { task }, value: total('dead', task) })) },
    {
      ...family(METRIC.transactionsSentTotal),
      samples: Object.entries(TX_SENT_EVENTS).map(([event, kind]) => ({ labels: { kind }, value: total(event) })),
    },
    { ...family(METRIC.feeBumpsTotal), samples: [{ value: total('replaced') }] },
    { ...family(METRIC.feeCappedTotal), samples: [{ value: total('fee_capped') }] },
    { ...family(METRIC.reorgsTotal), samples: [{ value: total('reorged') }] },
    {
      ...family(METRIC.approvalsTotal),
      samples: [
        { labels: { decision: 'approved' }, value: total('approved') },
        { labels: { decision: 'rejected' }, value: total('rejected') },
      ],
    },
    {
      ...family(METRIC.faultsTotal),
      samples: FAULT_EVENTS.map((fault) => ({
        labels: { fault },
        value: rows.filter((r) => r.task === 'faults' && r.event === fault).reduce((a, r) => a + Number(r.faults), 0),
      })),
    },
    {
      ...family(METRIC.webhookAttemptsTotal),
      samples: [
        { labels: { outcome: 'ok' }, value: Number(w.find((r) => r.ok)?.n ?? 0) },
        { labels: { outcome: 'failed' }, value: Number(w.find((r) => !r.ok)?.n ?? 0) },
      ],
    },
  ]
}

function family(info: { name: string; help: string; type: 'counter' | 'histogram' }): Omit<ExpositionFamily, 'samples'> {
  return { name: info.name, help: info.help, type: info.type }
}
