import type postgres from 'postgres'

/** Wall-clock ms (epoch) of each step of one order, from its job_events timeline. */
export type OrderTimings = {
  orderId: string
  status: string
  /** the signer the order's nonce was taken from */
  signer: string | null
  /** the intake transaction began (the 'enqueued' event's now()) */
  enqueued: number | null
  /** the intake transaction committed (commit timestamp of that event's row) */
  committed: number | null
  /** mint_send began its first attempt ('started') */
  started: number | null
  /** the mint was simulated, gas and fees read ('simulated') */
  simulated: number | null
  /** the signing transaction began (nonce lock, KMS, store: 'signed' shares its now()) */
  signBegan: number | null
  /** ... and committed */
  signCommitted: number | null
  /** eth_sendRawTransaction answered ('broadcast', or 'already_known') */
  broadcast: number | null
  /** mint_confirm's first look began (its job was added with the broadcast, to run at once) */
  confirmStarted: number | null
  /** mint_confirm saw the receipt with its confirmations ('confirmed') */
  confirmed: number | null
  /** how many times mint_confirm ran for the order (each poll is a job) */
  confirmRuns: number
  /** failed attempts of any of its jobs */
  failures: number
}

/**
 * Every order's steps, in one query over job_events (indexed by order): the event times
 * are the database's now() of the transaction that wrote them, the commit times come from
 * pg_xact_commit_timestamp of the rows' xmin (track_commit_timestamp is on in the bench).
 */
export async function readOrderTimings(sql: postgres.Sql, { orderIds }: { orderIds: readonly string[] }): Promise<OrderTimings[]> {
  const rows = await sql<
    {
      id: string
      status: string
      signer: string | null
      enqueued: number | null
      committed: number | null
      started: number | null
      simulated: number | null
      sign_began: number | null
      sign_committed: number | null
      broadcast: number | null
      confirm_started: number | null
      confirmed: number | null
      confirm_runs: number
      failures: number
    }[]
  >`
    select o.id::text as id, o.status::text as status, o.signer_address as signer,
      x.enqueued, c.committed, x.started, x.simulated, x.sign_began, s.sign_committed, x.broadcast, x.confirm_started, x.confirmed,
      x.confirm_runs, x.failures
    from mint_orders o
    left join lateral (
      select
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = 'mint_send' and e.event = 'enqueued') as enqueued,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = 'mint_send' and e.event = 'started') as started,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = 'mint_send' and e.event = 'simulated') as simulated,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = 'mint_send' and e.event = 'signed') as sign_began,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = 'mint_send' and e.event in ('broadcast', 'already_known')) as broadcast,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.task = 'mint_confirm' and e.event = 'started') as confirm_started,
        min(extract(epoch from e.at)::float8 * 1000) filter (where e.event = 'confirmed') as confirmed,
        (count(*) filter (where e.task = 'mint_confirm' and e.event = 'started'))::int as confirm_runs,
        (count(*) filter (where e.event = 'failed'))::int as failures
      from job_events e where e.order_id = o.id
    ) x on true
    left join lateral (
      select extract(epoch from pg_xact_commit_timestamp(e.xmin))::float8 * 1000 as committed
      from job_events e where e.order_id = o.id and e.task = 'mint_send' and e.event = 'enqueued' order by e.id limit 1
    ) c on true
    left join lateral (
      select extract(epoch from pg_xact_commit_timestamp(e.xmin))::float8 * 1000 as sign_committed
      from job_events e where e.order_id = o.id and e.task = 'mint_send' and e.event = 'signed' order by e.id limit 1
    ) s on true
    where o.id = any(${orderIds as string[]}::uuid[])`
  return rows.map((r) => ({
    orderId: r.id,
    status: r.status,
    signer: r.signer,
    enqueued: r.enqueued,
    committed: r.committed,
    started: r.started,
    simulated: r.simulated,
    signBegan: r.sign_began,
    signCommitted: r.sign_committed,
    broadcast: r.broadcast,
    confirmStarted: r.confirm_started,
    confirmed: r.confirmed,
    confirmRuns: r.confirm_runs,
    failures: r.failures,
  }))
}
