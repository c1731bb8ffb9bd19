import type postgres from 'postgres'
import { OPERATION_TABLES, type TimedOperation } from './timedOperations'

/**
 * Wall-clock ms (epoch) of each step of one order, from its job_events timeline: only the
 * event names the pipeline documents (docs/api.md's timeline), never worker internals, so
 * the send and confirm paths can change under the bench.
 */
export type OrderTimings = {
  orderId: string
  status: string
  /** the signer the order's nonce was taken from */
  signer: string | null
  /** the transaction that added its mint_send job began (the last approval's: the 'enqueued' event's now()) */
  enqueued: number | null
  /** ... and committed (commit timestamp of that event's row) */
  committed: number | null
  /** the first event after the job was added: a worker took the order (the drain's start) */
  firstWork: number | null
  /** mint_send began its first attempt ('started') */
  started: number | null
  /** the signature was stored ('signed': now() of its transaction) */
  signed: number | null
  /** ... and that transaction committed */
  signCommitted: number | null
  /** eth_sendRawTransaction answered ('broadcast', or 'already_known') */
  broadcast: number | null
  /** the receipt with its confirmations was seen ('confirmed') */
  confirmed: number | null
  /** failed attempts of any of its jobs */
  failures: number
}

/**
 * Every order's steps (or every redemption's: `operation`), in one query over job_events (indexed by order), the
 * worker's counted from its send job's 'enqueued' event on (the approvers' 'signed' and 'approved' events come before
 * it): the event times are the database's now() of the transaction that wrote them, the commit times come from
 * pg_xact_commit_timestamp of the rows' xmin (track_commit_timestamp is on in the bench; with it off, as in a test
 * database, the commit times are null).
 */
export async function listOrderTimings(
  sql: postgres.Sql,
  { orderIds, operation = 'mint' }: { orderIds: readonly string[]; operation?: TimedOperation },
): Promise<OrderTimings[]> {
  const { table, sendTask } = OPERATION_TABLES[operation]
  const rows = await sql<
    {
      id: string
      status: string
      signer: string | null
      enqueued: number | null
      committed: number | null
      first_work: number | null
      started: number | null
      signed: number | null
      sign_committed: number | null
      broadcast: number | null
      confirmed: number | null
      failures: number
    }[]
  >`
    select o.id::text as id, o.status::text as status, o.signer_address as signer,
      c.enqueued, c.committed, x.first_work, x.started, x.signed, s.sign_committed, x.broadcast, x.confirmed, x.failures
    from ${sql(table)} o
    left join lateral (
      select e.id as enqueued_id, extract(epoch from e.at)::float8 * 1000 as enqueued,
        case when current_setting('track_commit_timestamp')::bool
          then extract(epoch from pg_xact_commit_timestamp(e.xmin))::float8 * 1000 end as committed
      from job_events e where e.order_id = o.id and e.event = 'enqueued' order by e.id limit 1
    ) c on true
    left join lateral (
      select
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.event <> 'enqueued') as first_work,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = ${sendTask} and e.event = 'started') as started,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.event = 'signed') as signed,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.event in ('broadcast', 'already_known')) as broadcast,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.event = 'confirmed') as confirmed,
        (count(*) filter (where e.event = 'failed'))::int as failures
      from job_events e where e.order_id = o.id and e.id > c.enqueued_id
    ) x on true
    left join lateral (
      select case when current_setting('track_commit_timestamp')::bool
          then extract(epoch from pg_xact_commit_timestamp(e.xmin))::float8 * 1000 end as sign_committed
      from job_events e where e.order_id = o.id and e.event = 'signed' and e.id > c.enqueued_id order by e.id limit 1
    ) s on true
    where o.id = any(${orderIds as string[]}::uuid[])`
  return rows.map((r) => ({
    orderId: r.id,
    status: r.status,
    signer: r.signer,
    enqueued: r.enqueued,
    committed: r.committed,
    firstWork: r.first_work,
    started: r.started,
    signed: r.signed,
    signCommitted: r.sign_committed,
    broadcast: r.broadcast,
    confirmed: r.confirmed,
    failures: r.failures,
  }))
}
