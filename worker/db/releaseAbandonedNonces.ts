import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { hasLiveSendJobSql } from '@/lib/jobs/hasLiveSendJobSql'
import type { ReleasedNonce } from './releaseCancelledNonces'

export type ReleaseAbandonedNoncesParameters = { signerAddress: string }

/**
 * Hands back the nonces a send batch reserved for orders that will not sign them: still
 * `reserved` (no signature was ever stored for them), their order failed or rejected
 * (cancelled ones: releaseCancelledNonces), and no mint_send job of the order left that
 * could still run. -> `released`, for the nonce health check to fill (invariant 3). A
 * reserved nonce of a live order is never touched: its next attempt signs it. Should an
 * admin's retry revive the job right after this, its batch finds the nonce released and
 * takes a new one (worker/mint/storeSendBatch.ts checks under the row's lock).
 */
export async function releaseAbandonedNonces(
  tx: Tx,
  { signerAddress }: ReleaseAbandonedNoncesParameters,
): Promise<ReleasedNonce[]> {
  const rows = await tx.execute<{ nonce: string; order_id: string }>(sql`
    update signer_nonces sn set state = 'released', updated_at = now()
    from mint_orders mo
    where mo.id = sn.order_id and mo.status in ('failed', 'rejected')
      and sn.signer_address = ${signerAddress} and sn.state = 'reserved' and sn.use = 'mint'
      and not exists (select 1 from chain_txs c where c.signer_address = sn.signer_address and c.nonce = sn.nonce)
      and not ${hasLiveSendJobSql(sql`sn.order_id`)}
    returning sn.nonce::text as nonce, sn.order_id::text as order_id`)
  return rows.map((r) => ({ nonce: BigInt(r.nonce), orderId: r.order_id })).sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
}
