import type postgres from 'postgres'

export type SeedYearOfHistoryParameters = {
  /** the database owner's connection (a superuser: the bulk tables are written with triggers and checks of
   * foreign keys off, session_replication_role = replica, every reference made right by construction) */
  sql: postgres.Sql
  /** 1 = a year of a busy desk (HISTORY_VOLUME); 0.001 = a thousandth of it, for a test */
  scale: number
  log?: (line: string) => void
}

/** A year's volume at scale 1. */
export const HISTORY_VOLUME = {
  orders: 1_000_000,
  /** ten per order: each order's two jobs tell its story (docs/decisions/066-a-year-of-history.md) */
  jobEventsPerOrder: 10,
  auditRows: 1_000_000,
  bars: 200_000,
  /** dead letters still waiting for an admin: the failed orders of the last weeks */
  deadLetters: 500,
} as const

export type SeedYearOfHistoryReturnType = {
  scale: number
  /** rows per table after the seed */
  counts: Record<string, number>
  seconds: number
  /** ids the measured run reads: an order of each kind, a job, a recipient, a tx hash, a bar serial, a webhook */
  samples: HistorySamples
}

export type HistorySamples = {
  confirmedOrderIds: string[]
  failedOrderId: string
  confirmedJobIds: string[]
  deadJobId: string
  recipient: string
  txHash: string
  barSerial: string
  endpointId: string
  auditTargetOrderId: string
  staffUserId: string
  adminUserId: string
}

/** The tables the seed writes, in the order of their counts in the report. */
export const HISTORY_TABLES = [
  'mint_orders',
  'job_records',
  'job_events',
  'audit_log',
  'vault_bars',
  'mint_order_bars',
  'redemptions',
  'chain_txs',
  'signer_nonces',
  'notification_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
] as const

const STAFF = 20
const APPROVERS = 5
const VAULTS = ['LDN-1', 'ZRH-1', 'NYC-1', 'SGP-1']
const REFINERS = ['PAMP', 'VALCAMBI', 'ARGOR-HERAEUS', 'METALOR', 'RAND REFINERY']
const RECIPIENTS = 5_000
/** the seeded year ends this long before now: the last hour's metrics see the live part only */
const FAILURES = [
  'ContractFunctionExecutionError: execution reverted: GoldMinter: rate limit exceeded',
  'ContractFunctionExecutionError: execution reverted: GoldMinter: reserves exceeded',
  'HttpRequestError: HTTP request failed. Status: 503 URL: https://rpc.example/ timed out',
  'TransactionReceiptNotFoundError: the transaction was dropped from the mempool',
  'KmsError: ThrottlingException: Rate exceeded',
]

/**
 * A year of a busy desk written straight into the database, set-based (generate_series), so a million orders and
 * ten million timeline events take minutes: orders across the year in every status (most confirmed, some failed
 * with the error texts the pipeline writes, a live tail awaiting approval, pending, submitted), each with its two
 * jobs (mint_send, order_confirm) in the history and about ten timeline events, its signed transaction and nonce,
 * its notification and webhook delivery; bars in four vaults (most backing confirmed orders, some free, a few
 * redeemed by burned redemptions); the dead letters of the last weeks live in graphile-worker's table; the audit
 * log inserted through its chaining trigger, in statements of 100k rows, so `npm run audit:verify` accepts it.
 * Ends with VACUUM ANALYZE of the tables written. Run it once, on an empty migrated database.
 */
export async function seedYearOfHistory(p: SeedYearOfHistoryParameters): Promise<SeedYearOfHistoryReturnType> {
  const log = p.log ?? (() => {})
  const started = performance.now()
  const sql = p.sql
  const n = Math.max(100, Math.round(HISTORY_VOLUME.orders * p.scale))
  const bars = Math.max(40, Math.round(HISTORY_VOLUME.bars * p.scale))
  const auditRows = Math.max(100, Math.round(HISTORY_VOLUME.auditRows * p.scale))
  const deadLetters = Math.max(2, Math.round(HISTORY_VOLUME.deadLetters * p.scale))
  // the newest orders are still moving: 0.3% of them awaiting approval, pending or submitted
  const liveTail = Math.max(6, Math.round(n * 0.003))
  const redeemedBars = Math.max(2, Math.round(bars * 0.01))
  const step = async (what: string, run: () => Promise<unknown>) => {
    const t = performance.now()
    await run()
    log(`history seed: ${what} (${((performance.now() - t) / 1000).toFixed(1)} s)`)
  }

  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`
    await tx`set local synchronous_commit = off`
    await step('users and signers', async () => {
      await tx.unsafe(`
        insert into users (id, email, name, role)
        select ${uuidOf('g')}, 'staff' || g || '@history.local', 'Staff ' || g, 'staff'::user_role from generate_series(1, ${STAFF}) g
        union all
        select ${uuidOf('100 + g')}, 'approver' || g || '@history.local', 'Approver ' || g, 'approver'
          from generate_series(1, ${APPROVERS}) g
        union all
        select ${uuidOf('200')}, 'admin@history.local', 'Admin', 'admin'`)
      await tx.unsafe(`
        insert into signers (address, kms_key_id, chain_id, next_nonce)
        select '0x' || lpad(to_hex(g), 40, '5'), 'history-key-' || g, 31337, ${n}
        from generate_series(0, 1) g`)
      await tx.unsafe(`
        insert into webhook_endpoints (id, url, events, secret_ciphertext)
        select ${uuidOf('300 + g')}, 'https://hooks.example/' || g, array['mint.confirmed', 'mint.failed'], 'v1:history'
        from generate_series(1, 2) g`)
    })
    await step(`${n.toLocaleString('en-US')} orders`, () =>
      tx.unsafe(`
        insert into mint_orders (id, to_address, amount_wei, status, vault, receipt_ref, document_sha256, requested_by,
          idempotency_key, job_id, signer_address, nonce, tx_hash, block_number, failure_reason, created_at, updated_at,
          submitted_at, confirmed_at, approved_by, approved_at, rejected_by, rejected_at, rejection_reason,
          intent_deadline)
        select o.id, ${recipientOf(`g % ${RECIPIENTS}`)}, ((1 + g % 400) * 1000)::numeric * 1000000000000000,
          o.status::mint_status, (array['${VAULTS.join("','")}'])[1 + g % ${VAULTS.length}], 'VR-' || g,
          md5('doc' || g) || md5('doc2' || g), ${uuidOf(`1 + g % ${STAFF}`)}, 'idem-' || g, 2 * g - 1,
          case when o.sent then '0x' || lpad(to_hex(g % 2), 40, '5') end, case when o.sent then g / 2 end,
          case when o.sent then ${txHashOf('g')} end,
          case when o.status = 'confirmed' then 1000000 + g end,
          case when o.status = 'failed' then (array['${FAILURES.map((f) => f.replace(/'/g, "''")).join("','")}'])[1 + g % ${FAILURES.length}] end,
          o.at, o.at + interval '3 minutes',
          case when o.sent then o.at + interval '40 seconds' end,
          case when o.status = 'confirmed' then o.at + interval '3 minutes' end,
          case when o.status not in ('awaiting_approval', 'rejected') then ${uuidOf(`101 + g % ${APPROVERS}`)} end,
          case when o.status not in ('awaiting_approval', 'rejected') then o.at + interval '20 seconds' end,
          case when o.status = 'rejected' then ${uuidOf(`101 + g % ${APPROVERS}`)} end,
          case when o.status = 'rejected' then o.at + interval '1 hour' end,
          case when o.status = 'rejected' then 'receipt does not match the bar list' end,
          date_trunc('second', o.at) + interval '7 days'
        from generate_series(1, ${n}) g
        cross join lateral (select ${orderIdOf('g')} as id, ${orderAtOf('g', n)} as at,
          ${orderStatusOf('g', n, liveTail)} as status) s0
        cross join lateral (select s0.id, s0.at, s0.status,
          s0.status in ('confirmed', 'submitted', 'failed') as sent) o`),
    )
    await step('job history (two jobs per order)', () =>
      tx.unsafe(`
        insert into job_records (job_id, task, order_id, state, attempts, max_attempts, last_error, payload, created_at,
          updated_at, finished_at)
        select 2 * o.g - 2 + j, case j when 1 then 'mint_send' else 'order_confirm' end, o.id,
          case when o.status = 'failed' and j = 1 then 'cancelled' else 'done' end,
          case when o.status = 'failed' and j = 1 then 5 else 1 end, 5,
          case when o.status = 'failed' and j = 1 then o.failure_reason end,
          jsonb_build_object('orderId', o.id), o.created_at + j * interval '30 seconds',
          o.created_at + interval '3 minutes', o.created_at + interval '3 minutes'
        from (select substr(receipt_ref, 4)::int as g, id, status, failure_reason, created_at
              from mint_orders where status not in ('awaiting_approval', 'rejected', 'pending')) o
        cross join generate_series(1, case when o.status = 'failed' then 1 else 2 end) j
        where not (o.status = 'submitted' and j = 2)`),
    )
    const chunk = Math.max(1, Math.ceil(n / 10))
    for (let from = 1; from <= n; from += chunk) {
      const to = Math.min(n, from + chunk - 1)
      await step(`job events of orders ${from.toLocaleString('en-US')}..${to.toLocaleString('en-US')}`, () =>
        tx.unsafe(`
          insert into job_events (order_id, job_id, task, event, attempt, detail, error, actor, duration_ms, data, at)
          select o.id, case when e.job = 1 then o.job_id when e.job = 2 then o.job_id + 1 end,
            case e.job when 2 then 'order_confirm' else 'mint_send' end, e.event, e.attempt, e.detail, e.error,
            e.actor, e.duration_ms, e.data, o.created_at + e.offset_s * interval '1 second'
          from mint_orders o
          cross join lateral (values
            (0, 'approval_requested', null::int, 'awaiting 1 approver signature', null::text, 'staff@history.local', null::int, null::jsonb, 0),
            (0, 'approved', null, 'approver signed', null, 'approver@history.local', null, null, 20),
            (1, 'enqueued', null, 'mint ' || (o.amount_wei / 1000000000000000000)::text || ' oz', null, null, null, null, 21),
            (1, 'started', 1, 'attempt 1 of 5', null, null, null, null, 22),
            (1, 'signed', 1, 'nonce ' || o.nonce, null, null, null, jsonb_build_object('nonce', o.nonce::text), 30),
            (1, 'succeeded', 1, null, null, null, 800 + (o.nonce % 700)::int, null, 40),
            (2, 'enqueued', null, null, null, null, null, null, 41),
            (2, 'started', 1, 'attempt 1 of 5', null, null, null, null, 60),
            (2, 'confirmed', 1, '12 confirmations', null, null, null,
              jsonb_build_object('blockNumber', o.block_number::text, 'confirmations', 12), 178),
            (2, 'succeeded', 1, null, null, null, 150 + (o.nonce % 300)::int, null, 180)
          ) as e(job, event, attempt, detail, error, actor, duration_ms, data, offset_s)
          where o.status = 'confirmed' and substr(o.receipt_ref, 4)::int between ${from} and ${to}
          union all
          select o.id, case when e.job = 1 then o.job_id end, 'mint_send', e.event, e.attempt, e.detail, e.error, e.actor,
            e.duration_ms, null, o.created_at + e.offset_s * interval '1 second'
          from mint_orders o
          cross join lateral (values
            (0, 'approval_requested', null::int, 'awaiting 1 approver signature', null::text, 'staff@history.local', null::int, 0),
            (0, 'approved', null, 'approver signed', null, 'approver@history.local', null, 20),
            (1, 'enqueued', null, null, null, null, null, 21),
            (1, 'started', 1, 'attempt 1 of 5', null, null, null, 22),
            (1, 'failed', 1, null, o.failure_reason || E'\\n    at sendMintOrder (worker/mint/sendMintOrders.ts)', null, 900, 30),
            (1, 'started', 2, 'attempt 2 of 5', null, null, null, 60),
            (1, 'failed', 2, null, o.failure_reason || E'\\n    at sendMintOrder (worker/mint/sendMintOrders.ts)', null, 900, 70),
            (1, 'dead', 5, null, o.failure_reason, null, null, 600),
            (1, 'cancelled', null, 'cancelled by an admin', null, 'admin@history.local', null, 3600),
            (0, 'failed', null, 'order failed', o.failure_reason, null, null, 3601)
          ) as e(job, event, attempt, detail, error, actor, duration_ms, offset_s)
          where o.status = 'failed' and substr(o.receipt_ref, 4)::int between ${from} and ${to}
          union all
          select o.id, case when e.job = 1 then o.job_id end, 'mint_send', e.event, null, e.detail, null, e.actor, null,
            null, o.created_at + e.offset_s * interval '1 second'
          from mint_orders o
          cross join lateral (values
            (0, 'approval_requested', 'awaiting 1 approver signature', 'staff@history.local', 0),
            (0, 'approved', 'approver signed', 'approver@history.local', 20),
            (1, 'enqueued', null, null, 21)
          ) as e(job, event, detail, actor, offset_s)
          where o.status in ('pending', 'submitted', 'awaiting_approval', 'rejected', 'cancelled')
            and (e.job = 0 or o.status in ('pending', 'submitted', 'cancelled')) and (e.event = 'approval_requested' or o.status <> 'awaiting_approval')
            and substr(o.receipt_ref, 4)::int between ${from} and ${to}`),
      )
    }
    await step('signed transactions and nonces', async () => {
      await tx.unsafe(`
        insert into chain_txs (hash, signer_address, nonce, order_id, kind, raw_tx, max_fee_per_gas,
          max_priority_fee_per_gas, gas_limit, created_at, broadcast_at, mined_block)
        select tx_hash, signer_address, nonce, id, 'mint', '0x02f8b1' || md5(tx_hash) || md5(id::text), 30000000000,
          1500000000, 180000, submitted_at - interval '2 seconds', submitted_at, block_number
        from mint_orders where tx_hash is not null`)
      await tx.unsafe(`
        insert into signer_nonces (signer_address, nonce, use, order_id, state, created_at, updated_at)
        select signer_address, nonce, 'mint', id,
          case status when 'confirmed' then 'mined' when 'submitted' then 'signed' else 'released' end::nonce_state,
          submitted_at - interval '3 seconds', updated_at
        from mint_orders where signer_address is not null`)
    })
    await step('notifications and webhook deliveries', async () => {
      await tx.unsafe(`
        insert into notification_events (id, type, order_id, payload, created_at, dispatched_at)
        select ${eventIdOf('o.id')}, case o.status when 'confirmed' then 'mint.confirmed' else 'mint.failed' end, o.id,
          jsonb_build_object('orderId', o.id, 'status', o.status, 'txHash', o.tx_hash), o.updated_at, o.updated_at
        from mint_orders o where o.status in ('confirmed', 'failed')`)
      await tx.unsafe(`
        insert into webhook_deliveries (id, event_id, endpoint_id, status, attempts, last_status_code, delivered_at,
          created_at, updated_at)
        select ${eventIdOf("e.id::text || 'd'")}, e.id, ${uuidOf('301')},
          case when e.order_id::text like '%0' then 'dead' else 'delivered' end, 1,
          case when e.order_id::text like '%0' then 500 else 200 end,
          case when e.order_id::text like '%0' then null else e.created_at + interval '1 second' end,
          e.created_at, e.created_at + interval '1 second'
        from notification_events e`)
      await tx.unsafe(`
        insert into webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, ok, error,
          response_excerpt, worker_id)
        select d.id, 1, d.created_at, 120, d.last_status_code, d.status = 'delivered',
          case when d.status = 'dead' then 'HTTP 500' end, '{"ok":true}', 'worker-1'
        from webhook_deliveries d`)
    })
    await step(`${bars.toLocaleString('en-US')} bars and their redemptions`, async () => {
      const backing = Math.round(bars * 0.8)
      await tx.unsafe(`
        insert into vault_bars (id, serial, refiner, year, gross_oz, fineness, fine_oz, created_at, vault, serial_key,
          refiner_key, status, order_id, updated_at)
        select ${uuidOf('1000000 + b.i')}, 'HS' || lpad(b.i::text, 7, '0'), b.refiner, 2015 + b.i % 10, b.gross, 999.9,
          floor(b.gross * 999.9) / 1000, coalesce(o.created_at, now() - interval '365 days'), coalesce(o.vault, b.vault),
          'HS' || lpad(b.i::text, 7, '0'), upper(replace(replace(b.refiner, ' ', ''), '-', '')),
          case when o.id is not null then 'backing' when b.i % 20 = 0 then 'withdrawn' when b.i % 101 = 0 then 'missing'
            else 'available' end::bar_status,
          o.id, coalesce(o.confirmed_at, now() - interval '300 days')
        from (select g as i, (array['${REFINERS.join("','")}'])[1 + g % ${REFINERS.length}] as refiner,
                400 + (g % 25)::numeric as gross, (array['${VAULTS.join("','")}'])[1 + g % ${VAULTS.length}] as vault
              from generate_series(1, ${bars}) g) b
        left join (select (row_number() over (order by created_at))::int as i, id, vault, created_at, confirmed_at
                   from mint_orders where status = 'confirmed') o on o.i = b.i and b.i <= ${backing}`)
      await tx.unsafe(`
        insert into mint_order_bars (bar_id, order_id, position) select id, order_id, 0 from vault_bars where order_id is not null`)
      await tx.unsafe(`
        update mint_orders o set amount_wei = b.fine_oz * 1000000000000000000
        from vault_bars b where b.order_id = o.id`)
      // the first confirmed orders' bars were redeemed: a deposit and a burned redemption each
      await tx.unsafe(`
        insert into deposits (tx_hash, log_index, block_number, block_hash, from_address, amount_wei, seen_at)
        select ${txHashOf("'dep' || b.id::text")}, 0, 2000000 + row_number() over (order by b.id), ${txHashOf("'blk' || b.id::text")},
          o.to_address, b.fine_oz * 1000000000000000000, o.confirmed_at + interval '30 days'
        from vault_bars b join mint_orders o on o.id = b.order_id
        where b.status = 'backing' order by b.id limit ${redeemedBars}`)
      await tx.unsafe(`
        insert into redemptions (id, deposit_tx_hash, deposit_log_index, holder_address, amount_wei, reference, status,
          requested_by, intent_deadline, signer_address, nonce, tx_hash, block_number, created_at, updated_at,
          submitted_at, burned_at)
        select ${eventIdOf("d.tx_hash || 'r'")}, d.tx_hash, 0, d.from_address, d.amount_wei, 'RD-' || d.block_number,
          'burned', ${uuidOf('1')}, d.seen_at + interval '7 days', '0x' || lpad(to_hex(1), 40, '5'),
          ${n} + d.block_number, ${txHashOf("'burn' || d.tx_hash")}, d.block_number + 10, d.seen_at, d.seen_at + interval '1 hour',
          d.seen_at + interval '10 minutes', d.seen_at + interval '1 hour'
        from deposits d`)
      await tx.unsafe(`
        update vault_bars b set status = 'redeemed', redemption_id = r.id, updated_at = r.burned_at
        from redemptions r
        where r.deposit_tx_hash = ${txHashOf("'dep' || b.id::text")} and b.status = 'backing'`)
      await tx.unsafe(`
        insert into redemption_bars (redemption_id, bar_id, position) select redemption_id, id, 0 from vault_bars
        where redemption_id is not null`)
      await tx.unsafe(`
        insert into chain_txs (hash, signer_address, nonce, redemption_id, kind, raw_tx, max_fee_per_gas,
          max_priority_fee_per_gas, gas_limit, created_at, broadcast_at, mined_block)
        select tx_hash, signer_address, nonce, id, 'redemption', '0x02f8b1' || md5(tx_hash), 30000000000, 1500000000,
          120000, submitted_at, submitted_at, block_number
        from redemptions`)
      // the live tail's bars are held by their orders
      await tx.unsafe(`
        update vault_bars b set status = 'reserved', order_id = o.id
        from (select (row_number() over (order by created_at))::int as i, id from mint_orders
              where status in ('pending', 'submitted', 'awaiting_approval')) o
        where b.status = 'available' and b.serial_key = 'HS' || lpad((${backing} + 2 * o.i)::text, 7, '0')`)
    })
  })
  // outside the replica session: the backing total is the bars' own trigger's running sum
  await step('the backing running total', () =>
    sql.unsafe(`
      insert into vault_backing_deltas (fine_oz, at)
      select coalesce(sum(fine_oz), 0), now() - interval '365 days' from vault_bars where status = 'backing'`),
  )
  await step(`${deadLetters} dead letters and the live jobs in graphile-worker`, async () => {
    await sql.unsafe(`select setval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'), ${2 * n + 10})`)
    await sql.unsafe(`
      with recent as (
        select id, failure_reason from mint_orders where status = 'failed' order by created_at desc limit ${deadLetters}
      ), added as (
        select r.id as order_id, r.failure_reason, (graphile_worker.add_job('mint_send',
          json_build_object('orderId', r.id), max_attempts => 5, job_key => 'mint_send:' || r.id)).id as job_id
        from recent r
      )
      insert into job_records (job_id, task, order_id, state, attempts, max_attempts, last_error, payload, created_at,
        updated_at)
      select a.job_id, 'mint_send', a.order_id, 'dead', 5, 5, a.failure_reason, jsonb_build_object('orderId', a.order_id),
        now() - interval '2 days', now() - interval '1 day'
      from added a`)
    // a statement sees none of the rows its own add_job calls insert: the attempts are used up in the next one
    await sql.unsafe(`
      update graphile_worker._private_jobs j set attempts = 5, last_error = r.last_error, run_at = now() - interval '1 day'
      from job_records r where r.job_id = j.id and r.state = 'dead'`)
    await sql.unsafe(`
      with live as (
        select id, status from mint_orders where status in ('pending', 'submitted')
      ), added as (
        select l.id as order_id, l.task, (graphile_worker.add_job(l.task, json_build_object('orderId', l.id),
          max_attempts => 5, run_at => now() + interval '10 minutes', job_key => l.task || ':' || l.id)).id as job_id
        from (select id, case status when 'pending' then 'mint_send' else 'order_confirm' end as task from live) l
      )
      insert into job_records (job_id, task, order_id, state, attempts, max_attempts, payload, created_at, updated_at)
      select a.job_id, a.task, a.order_id,
        'queued', 0, 5, jsonb_build_object('orderId', a.order_id), now(), now()
      from added a`)
  })
  await step(`${auditRows.toLocaleString('en-US')} audit rows through the chain's trigger`, async () => {
    const chunk = 100_000
    for (let from = 0; from < auditRows; from += chunk) {
      const count = Math.min(chunk, auditRows - from)
      await sql.unsafe(`
        insert into audit_log (actor_id, actor_email, action, target_type, target_id, detail, at)
        select case when k < 3 then ${uuidOf(`1 + (g / 10) % ${STAFF}`)} when k < 6 then ${uuidOf(`101 + (g / 10) % ${APPROVERS}`)}
            else ${uuidOf('200')} end,
          case when k < 3 then 'staff' || (1 + (g / 10) % ${STAFF}) || '@history.local'
            when k < 6 then 'approver' || (1 + (g / 10) % ${APPROVERS}) || '@history.local' else 'admin@history.local' end,
          (array['mint.requested', 'user.signed_in', 'redemption.requested', 'mint.approved', 'user.signed_in',
            'mint.rejected', 'job.retried', 'job.cancelled', 'webhook.created', 'bar_list.imported'])[1 + k],
          case when k in (1, 4) then 'user' when k in (6, 7) then 'job' when k = 8 then 'webhook'
            when k = 9 then 'bar_list' when k = 2 then 'redemption' else 'order' end,
          case when k in (1, 4) then 'staff' || (1 + (g / 10) % ${STAFF}) || '@history.local' when k in (6, 7) then (2 * g)::text
            else ${orderIdOf(`1 + (g * 7) % ${n}`)}::text end,
          jsonb_build_object('n', g, 'source', 'history seed'),
          now() - interval '366 days' + (g::float8 / ${auditRows}) * interval '365 days'
        from generate_series(${from + 1}, ${from + count}) g, lateral (select g % 10 as k) x`)
    }
  })
  await step('vacuum analyze', async () => {
    for (const table of [...HISTORY_TABLES, 'users', 'deposits', 'redemption_bars', 'vault_backing_deltas'])
      await sql.unsafe(`vacuum (analyze) ${table}`)
    await sql.unsafe('analyze graphile_worker._private_jobs')
  })

  const counts: Record<string, number> = {}
  for (const table of HISTORY_TABLES) {
    const [row] = await sql.unsafe<{ n: string }[]>(`select count(*)::text as n from ${table}`)
    counts[table] = Number(row?.n ?? 0)
  }
  const samples = await readHistorySamples(sql)
  return { scale: p.scale, counts, seconds: (performance.now() - started) / 1000, samples }
}

/** The ids a measured run reads, found again in a seeded database: orders spread over the year, one of each kind. */
export async function readHistorySamples(sql: postgres.Sql): Promise<HistorySamples> {
  const confirmed = await sql<{ id: string; job_id: string }[]>`
    select id::text, job_id::text from mint_orders
    where receipt_ref in (select 'VR-' || g from (select count(*)::int as n from mint_orders) c,
      generate_series(1, c.n, greatest(1, c.n / 60)) g)
      and status = 'confirmed'
    limit 20`
  const [failed] = await sql<{ id: string }[]>`
    select id::text from mint_orders where status = 'failed' order by created_at desc limit 1`
  const [dead] = await sql<{ job_id: string }[]>`select job_id::text from job_records where state = 'dead' limit 1`
  // a recipient and a transaction of a mint whose bar backs it, as the public lookup finds them
  const [tx] = await sql<{ to_address: string; tx_hash: string; serial: string }[]>`
    select o.to_address, o.tx_hash, b.serial from vault_bars b join mint_orders o on o.id = b.order_id
    where b.status = 'backing' order by b.serial desc limit 1`
  const bar = tx
  const [audit] = await sql<{ target_id: string }[]>`
    select target_id from audit_log where target_type = 'order' order by chain_seq limit 1`
  if (confirmed.length === 0 || !failed || !dead || !tx || !bar || !audit)
    throw new Error('the history seed left a table empty')
  return {
    confirmedOrderIds: confirmed.map((r) => r.id),
    failedOrderId: failed.id,
    confirmedJobIds: confirmed.map((r) => r.job_id),
    deadJobId: dead.job_id,
    recipient: tx.to_address,
    txHash: tx.tx_hash,
    barSerial: bar.serial,
    endpointId: '00000000-0000-4000-8000-000000000301',
    auditTargetOrderId: audit.target_id,
    staffUserId: '00000000-0000-4000-8000-000000000001',
    adminUserId: '00000000-0000-4000-8000-000000000200',
  }
}

/** a fixed uuid from a number: users, endpoints and bars are found again by it */
function uuidOf(expr: string): string {
  return `('00000000-0000-4000-8000-' || lpad((${expr})::text, 12, '0'))::uuid`
}

/** an order's id from its number: spread like gen_random_uuid's, found again from the number */
function orderIdOf(expr: string): string {
  return `md5('order' || (${expr}))::uuid`
}

function eventIdOf(expr: string): string {
  return `md5('event' || (${expr}))::uuid`
}

function txHashOf(expr: string): string {
  return `'0x' || md5('tx' || (${expr})) || md5('tx2' || (${expr}))`
}

function recipientOf(expr: string): string {
  return `'0x' || md5('to' || (${expr})) || substr(md5('to2' || (${expr})), 1, 8)`
}

/** order g of n: spread over the 365 days before the last hour, oldest first */
function orderAtOf(g: string, n: number): string {
  return `now() - interval '1 hour' - interval '365 days' + ((${g})::float8 / ${n}) * interval '365 days'`
}

/** the newest `liveTail` orders are still moving; of the rest, 3% failed, some rejected or cancelled, most confirmed */
function orderStatusOf(g: string, n: number, liveTail: number): string {
  return `case
    when ${g} > ${n - liveTail} then (array['awaiting_approval', 'pending', 'submitted'])[1 + ${g} % 3]
    when ${g} % 100 < 3 then 'failed'
    when ${g} % 100 = 3 and ${g} % 3 = 0 then 'rejected'
    when ${g} % 100 = 4 and ${g} % 5 = 0 then 'cancelled'
    else 'confirmed' end`
}
