import { REFINERS, type SeedPart, VAULTS } from './historyVolume'
import { eventIdOf, txHashOf, uuidOf } from './seedSql'

/**
 * The bars in four vaults: 80% backing the first confirmed orders (the order's amount their weight), 1% of those
 * redeemed by burned redemptions (a deposit, the redemption, its transaction), some withdrawn or missing, the live
 * tail's held by their orders, the rest available. In the replica session: seedBackingTotal writes the running total
 * the triggers would have.
 */
export async function seedBars({ sql, sizes, step }: SeedPart): Promise<void> {
  const n = sizes.orders
  const bars = sizes.bars
  const redeemedBars = sizes.redeemedBars
  await step(`${bars.toLocaleString('en-US')} bars and their redemptions`, async () => {
    const backing = Math.round(bars * 0.8)
    await sql.unsafe(`
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
    await sql.unsafe(`
      insert into mint_order_bars (bar_id, order_id, position) select id, order_id, 0 from vault_bars where order_id is not null`)
    await sql.unsafe(`
      update mint_orders o set amount_wei = b.fine_oz * 1000000000000000000
      from vault_bars b where b.order_id = o.id`)
    // the first confirmed orders' bars were redeemed: a deposit and a burned redemption each
    await sql.unsafe(`
      insert into deposits (tx_hash, log_index, block_number, block_hash, from_address, amount_wei, seen_at)
      select ${txHashOf("'dep' || b.id::text")}, 0, 2000000 + row_number() over (order by b.id), ${txHashOf("'blk' || b.id::text")},
        o.to_address, b.fine_oz * 1000000000000000000, o.confirmed_at + interval '30 days'
      from vault_bars b join mint_orders o on o.id = b.order_id
      where b.status = 'backing' order by b.id limit ${redeemedBars}`)
    await sql.unsafe(`
      insert into redemptions (id, deposit_tx_hash, deposit_log_index, holder_address, amount_wei, reference, status,
        requested_by, intent_deadline, signer_address, nonce, tx_hash, block_number, created_at, updated_at,
        submitted_at, burned_at)
      select ${eventIdOf("d.tx_hash || 'r'")}, d.tx_hash, 0, d.from_address, d.amount_wei, 'RD-' || d.block_number,
        'burned', ${uuidOf('1')}, d.seen_at + interval '7 days', '0x' || lpad(to_hex(1), 40, '5'),
        ${n} + d.block_number, ${txHashOf("'burn' || d.tx_hash")}, d.block_number + 10, d.seen_at, d.seen_at + interval '1 hour',
        d.seen_at + interval '10 minutes', d.seen_at + interval '1 hour'
      from deposits d`)
    await sql.unsafe(`
      update vault_bars b set status = 'redeemed', redemption_id = r.id, updated_at = r.burned_at
      from redemptions r
      where r.deposit_tx_hash = ${txHashOf("'dep' || b.id::text")} and b.status = 'backing'`)
    await sql.unsafe(`
      insert into redemption_bars (redemption_id, bar_id, position) select redemption_id, id, 0 from vault_bars
      where redemption_id is not null`)
    await sql.unsafe(`
      insert into chain_txs (hash, signer_address, nonce, redemption_id, kind, raw_tx, max_fee_per_gas,
        max_priority_fee_per_gas, gas_limit, created_at, broadcast_at, mined_block)
      select tx_hash, signer_address, nonce, id, 'redemption', '0x02f8b1' || md5(tx_hash), 30000000000, 1500000000,
        120000, submitted_at, submitted_at, block_number
      from redemptions`)
    // the live tail's bars are held by their orders
    await sql.unsafe(`
      update vault_bars b set status = 'reserved', order_id = o.id
      from (select (row_number() over (order by created_at))::int as i, id from mint_orders
            where status in ('pending', 'submitted', 'awaiting_approval')) o
      where b.status = 'available' and b.serial_key = 'HS' || lpad((${backing} + 2 * o.i)::text, 7, '0')`)
  })
}
