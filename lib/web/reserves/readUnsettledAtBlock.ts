import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ReadUnsettledAtBlockParameters = { blockNumber: bigint }

/**
 * Whether a mint or a burn of the desk was mined at or before the block but is not settled yet (its order still
 * submitted, its redemption not burned), or one broadcast whose mining the worker has not seen yet (it may have been
 * mined by then): the desk's records of that block may still change, so its attestation pack is not final
 * (docs/decisions/061-attestation-pack.md), however many confirmations the block has.
 */
export async function readUnsettledAtBlock(
  db: DbOrTx,
  { blockNumber }: ReadUnsettledAtBlockParameters,
): Promise<boolean> {
  const [row] = await db.execute<{ unsettled: boolean }>(sql`
    select exists (
      select 1 from chain_txs c
      left join mint_orders o on o.id = c.order_id
      left join redemptions r on r.id = c.redemption_id
      where (c.mined_block <= ${blockNumber.toString()}::bigint or (c.mined_block is null and c.broadcast_at is not null))
        and (o.status in ('pending', 'submitted') or r.status in ('pending', 'submitted'))
    ) as unsettled`)
  return row?.unsettled ?? false
}
