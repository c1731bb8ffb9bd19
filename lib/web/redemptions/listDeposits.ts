import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import type { ApiDeposit } from './apiTypes'

export type ListDepositsParameters = { status?: ApiDeposit['status']; limit: number }

/**
 * The deposits the worker has seen, newest first, each with its status read from the redemptions that reference
 * it: redeemed (its redemption burned), matched (held by an open one), unmatched (none, or only rejected or
 * cancelled ones).
 */
export async function listDeposits(db: Db, p: ListDepositsParameters): Promise<{ items: ApiDeposit[] }> {
  const rows = await db.execute<{
    tx_hash: string
    log_index: number
    from_address: string
    amount_wei: string
    block_number: string
    seen_at: Date | string
    redemption_id: string | null
    status: ApiDeposit['status']
  }>(sql`
    select * from (
      select d.tx_hash, d.log_index, d.from_address, d.amount_wei::text as amount_wei,
        d.block_number::text as block_number, d.seen_at, r.id::text as redemption_id,
        case when r.id is null then 'unmatched' when r.status = 'burned' then 'redeemed' else 'matched' end as status
      from deposits d
      left join redemptions r on r.deposit_tx_hash = d.tx_hash and r.deposit_log_index = d.log_index
        and r.status not in ('rejected', 'cancelled')
    ) x
    where ${p.status ?? null}::text is null or x.status = ${p.status ?? null}::text
    order by x.block_number::bigint desc, x.log_index desc
    limit ${p.limit}`)
  return {
    items: rows.map((r) => ({
      txHash: r.tx_hash,
      logIndex: r.log_index,
      from: getAddress(r.from_address),
      amount: formatOrderAmount(r.amount_wei),
      blockNumber: r.block_number,
      status: r.status,
      redemptionId: r.redemption_id,
      seenAt: new Date(r.seen_at).toISOString(),
    })),
  }
}
