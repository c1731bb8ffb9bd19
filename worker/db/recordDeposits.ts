import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

/** A transfer to the redemption address with its confirmations, as the chain's log says. */
export type SeenDeposit = {
  txHash: string
  logIndex: number
  blockNumber: bigint
  blockHash: string
  fromAddress: string
  amountWei: bigint
}

export type RecordDepositsParameters = { deposits: readonly SeenDeposit[]; cursor: { name: string; block: bigint } }

/**
 * Records the deposits (a deposit seen before is left as it is) with a redemption.deposit_received event for each
 * new one, and moves the watcher's cursor to `cursor.block`, in the caller's transaction. Returns how many were
 * new.
 */
export async function recordDeposits(tx: Tx, p: RecordDepositsParameters): Promise<number> {
  let added = 0
  if (p.deposits.length > 0) {
    const rows = await tx.execute<{ tx_hash: string }>(sql`
      with seen as (
        select * from jsonb_to_recordset(${JSON.stringify(
          p.deposits.map((d) => ({
            tx_hash: d.txHash.toLowerCase(),
            log_index: d.logIndex,
            block_number: d.blockNumber.toString(),
            block_hash: d.blockHash.toLowerCase(),
            from_address: d.fromAddress.toLowerCase(),
            amount_wei: d.amountWei.toString(),
          })),
        )}::jsonb) as x(tx_hash text, log_index int, block_number bigint, block_hash text, from_address text,
          amount_wei numeric)
      ), added as (
        insert into deposits (tx_hash, log_index, block_number, block_hash, from_address, amount_wei)
        select tx_hash, log_index, block_number, block_hash, from_address, amount_wei from seen
        on conflict do nothing
        returning *
      )
      insert into notification_events (type, payload)
      select 'redemption.deposit_received', jsonb_build_object(
          'txHash', a.tx_hash, 'logIndex', a.log_index, 'from', a.from_address, 'amountWei', a.amount_wei::text,
          'blockNumber', a.block_number::text, 'status', 'unmatched')
      from added a
      returning payload->>'txHash' as tx_hash`)
    added = rows.length
  }
  await tx.execute(sql`
    insert into chain_cursors (name, block_number) values (${p.cursor.name}, ${p.cursor.block.toString()}::bigint)
    on conflict (name) do update set block_number = greatest(chain_cursors.block_number, excluded.block_number),
      updated_at = now()`)
  return added
}
