import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type UnreconciledEventIn = {
  txHash: string
  logIndex: number
  blockNumber: bigint
  contractAddress: string
  event: string
  /** the event's id argument as bytes32 hex */
  subjectId: string | null
  /** the desk's id it decodes to, when it is a uuid */
  orderId: string | null
  amountWei: bigint | null
  reason: string
}

/**
 * Lists one chain event no row of the desk accounts for (unreconciled_events), once per log: a second pass over
 * the same blocks (the cursor rolled back with a restore) adds nothing. Returns whether it was new.
 */
export async function recordUnreconciledEvent(tx: Tx, e: UnreconciledEventIn): Promise<boolean> {
  const rows = await tx.execute<{ id: string }>(sql`
    insert into unreconciled_events (tx_hash, log_index, block_number, contract_address, event, subject_id, order_id, amount_wei, reason)
    values (${e.txHash}, ${e.logIndex}, ${e.blockNumber}::bigint, ${e.contractAddress}, ${e.event}, ${e.subjectId},
      ${e.orderId}, ${e.amountWei === null ? null : e.amountWei.toString()}::numeric, ${e.reason})
    on conflict (tx_hash, log_index) do nothing
    returning id`)
  return rows.length > 0
}
