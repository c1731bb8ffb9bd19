import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { hasLiveSendJobSql } from '@/lib/jobs/hasLiveSendJobSql'
import { TASK } from '@/lib/jobs/jobKeys'
import type { ReleasedNonce } from './releaseCancelledNonces'

export type ReleaseAbandonedNoncesParameters = { signerAddress: string }

/**
 * Hands back the nonces a send batch reserved for operations that will not sign them: still
 * `reserved` (no signature was ever stored for them), their order failed or rejected (a control
 * change, a compliance operation or a redemption: failed)
 * (cancelled ones: releaseCancelledNonces), and no send job of the operation left that
 * could still run. -> `released`, for the nonce health check to fill (invariant 3). A
 * reserved nonce of a live order is never touched: its next attempt signs it. Should an
 * admin's retry revive the job right after this, its batch finds the nonce released and
 * takes a new one (worker/mint/storeSendBatch.ts checks under the row's lock).
 */
export async function releaseAbandonedNonces(
  tx: Tx,
  { signerAddress }: ReleaseAbandonedNoncesParameters,
): Promise<ReleasedNonce[]> {
  const unsigned = sql`not exists (select 1 from chain_txs c where c.signer_address = sn.signer_address and c.nonce = sn.nonce)`
  const rows = await tx.execute<{ nonce: string; order_id: string }>(sql`
    with mints as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from mint_orders mo
      where mo.id = sn.order_id and mo.status in ('failed', 'rejected')
        and sn.signer_address = ${signerAddress} and sn.state = 'reserved' and sn.use = 'mint' and ${unsigned}
        and not ${hasLiveSendJobSql({ id: sql`sn.order_id`, task: TASK.mintSend })}
      returning sn.nonce, sn.order_id as id
    ), changes as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from control_changes cc
      where cc.id = sn.control_change_id and cc.status = 'failed'
        and sn.signer_address = ${signerAddress} and sn.state = 'reserved' and sn.use = 'control_change' and ${unsigned}
        and not ${hasLiveSendJobSql({ id: sql`sn.control_change_id`, task: TASK.controlSend })}
      returning sn.nonce, sn.control_change_id as id
    ), compliance as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from compliance_operations co
      where co.id = sn.compliance_operation_id and co.status = 'failed'
        and sn.signer_address = ${signerAddress} and sn.state = 'reserved' and sn.use = 'compliance' and ${unsigned}
        and not ${hasLiveSendJobSql({ id: sql`sn.compliance_operation_id`, task: TASK.complianceSend })}
      returning sn.nonce, sn.compliance_operation_id as id
    ), redemptions as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from redemptions r
      where r.id = sn.redemption_id and r.status = 'failed'
        and sn.signer_address = ${signerAddress} and sn.state = 'reserved' and sn.use = 'redemption' and ${unsigned}
        and not ${hasLiveSendJobSql({ id: sql`sn.redemption_id`, task: TASK.redemptionSend })}
      returning sn.nonce, sn.redemption_id as id
    )
    select nonce::text as nonce, id::text as order_id from mints
    union all select nonce::text, id::text from changes
    union all select nonce::text, id::text from compliance
    union all select nonce::text, id::text from redemptions`)
  return rows.map((r) => ({ nonce: BigInt(r.nonce), orderId: r.order_id })).sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
}
