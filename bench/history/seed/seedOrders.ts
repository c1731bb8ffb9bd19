import { APPROVERS, FAILURES, RECIPIENTS, type SeedPart, STAFF, VAULTS } from './historyVolume'
import { eventIdOf, orderAtOf, orderIdOf, orderStatusOf, recipientOf, txHashOf, uuidOf } from './seedSql'

/**
 * The people and the orders of the year: staff, approvers and an admin, two signers, two webhook endpoints; the orders
 * across the year in every status (orderStatusOf), each sent one with its signed transaction and nonce; a
 * notification and a webhook delivery (with its attempt) for each confirmed or failed order. In the replica session.
 */
export async function seedOrders({ sql, sizes, step }: SeedPart): Promise<void> {
  const n = sizes.orders
  const liveTail = sizes.liveTail
  await step('users and signers', async () => {
    await sql.unsafe(`
      insert into users (id, email, name, role)
      select ${uuidOf('g')}, 'staff' || g || '@history.local', 'Staff ' || g, 'staff'::user_role from generate_series(1, ${STAFF}) g
      union all
      select ${uuidOf('100 + g')}, 'approver' || g || '@history.local', 'Approver ' || g, 'approver'
        from generate_series(1, ${APPROVERS}) g
      union all
      select ${uuidOf('200')}, 'admin@history.local', 'Admin', 'admin'`)
    await sql.unsafe(`
      insert into signers (address, kms_key_id, chain_id, next_nonce)
      select '0x' || lpad(to_hex(g), 40, '5'), 'history-key-' || g, 31337, ${n}
      from generate_series(0, 1) g`)
    await sql.unsafe(`
      insert into webhook_endpoints (id, url, events, secret_ciphertext)
      select ${uuidOf('300 + g')}, 'https://hooks.example/' || g, array['mint.confirmed', 'mint.failed'], 'v1:history'
      from generate_series(1, 2) g`)
  })
  await step(`${n.toLocaleString('en-US')} orders`, () =>
    sql.unsafe(`
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
  await step('signed transactions and nonces', async () => {
    await sql.unsafe(`
      insert into chain_txs (hash, signer_address, nonce, order_id, kind, raw_tx, max_fee_per_gas,
        max_priority_fee_per_gas, gas_limit, created_at, broadcast_at, mined_block)
      select tx_hash, signer_address, nonce, id, 'mint', '0x02f8b1' || md5(tx_hash) || md5(id::text), 30000000000,
        1500000000, 180000, submitted_at - interval '2 seconds', submitted_at, block_number
      from mint_orders where tx_hash is not null`)
    await sql.unsafe(`
      insert into signer_nonces (signer_address, nonce, use, order_id, state, created_at, updated_at)
      select signer_address, nonce, 'mint', id,
        case status when 'confirmed' then 'mined' when 'submitted' then 'signed' else 'released' end::nonce_state,
        submitted_at - interval '3 seconds', updated_at
      from mint_orders where signer_address is not null`)
  })
  await step('notifications and webhook deliveries', async () => {
    await sql.unsafe(`
      insert into notification_events (id, type, order_id, payload, created_at, dispatched_at)
      select ${eventIdOf('o.id')}, case o.status when 'confirmed' then 'mint.confirmed' else 'mint.failed' end, o.id,
        jsonb_build_object('orderId', o.id, 'status', o.status, 'txHash', o.tx_hash), o.updated_at, o.updated_at
      from mint_orders o where o.status in ('confirmed', 'failed')`)
    await sql.unsafe(`
      insert into webhook_deliveries (id, event_id, endpoint_id, status, attempts, last_status_code, delivered_at,
        created_at, updated_at)
      select ${eventIdOf("e.id::text || 'd'")}, e.id, ${uuidOf('301')},
        case when e.order_id::text like '%0' then 'dead' else 'delivered' end, 1,
        case when e.order_id::text like '%0' then 500 else 200 end,
        case when e.order_id::text like '%0' then null else e.created_at + interval '1 second' end,
        e.created_at, e.created_at + interval '1 second'
      from notification_events e`)
    await sql.unsafe(`
      insert into webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, ok, error,
        response_excerpt, worker_id)
      select d.id, 1, d.created_at, 120, d.last_status_code, d.status = 'delivered',
        case when d.status = 'dead' then 'HTTP 500' end, '{"ok":true}', 'worker-1'
      from webhook_deliveries d`)
  })
}
