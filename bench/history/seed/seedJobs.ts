import type { SeedPart } from './historyVolume'

/**
 * Each order's story: its two jobs in the history (mint_send, order_confirm; a failed order's send cancelled after its
 * attempts) and about ten timeline events (approval, enqueued, started, signed, succeeded or failed with the
 * pipeline's error, confirmed), written a tenth of the orders per statement. In the replica session.
 */
export async function seedJobs({ sql, sizes, step }: SeedPart): Promise<void> {
  const n = sizes.orders
  await step('job history (two jobs per order)', () =>
    sql.unsafe(`
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
      sql.unsafe(`
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
}
