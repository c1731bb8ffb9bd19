import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { wakeNonceHealth } from '@/lib/jobs/wakeNonceHealth'
import { recordRedemptionEvent } from '@/lib/notifications/recordRedemptionEvent'
import { OrderConfirmedError } from '@/lib/web/errors/admin'
import type { CancelComplianceOperationReturnType } from './cancelComplianceOperation'

/**
 * The redemption of a redemption_send job an admin cancels, in the cancel's transaction (lib/web/admin/cancelJob.ts):
 * locked; burned, or its burn known to be mined -> 409 order_confirmed; else `cancelled` with its redemption.failed
 * event (status cancelled), its deposit and its bars free again (a new redemption may match them). A nonce it holds
 * is reported and the nonce health job woken: the worker releases and fills it (releaseCancelledNonces).
 */
export async function cancelRedemption(
  tx: Tx,
  { redemptionId }: { redemptionId: string },
): Promise<CancelComplianceOperationReturnType> {
  const rows = await tx.execute<{ status: string }>(
    sql`select status::text as status from redemptions where id = ${redemptionId}::uuid for update`,
  )
  const previousStatus = rows[0]?.status ?? null
  if (previousStatus === 'burned') throw new OrderConfirmedError({ orderId: redemptionId })
  const mined = await tx.execute<{ one: number }>(sql`
    select 1 as one from chain_txs where redemption_id = ${redemptionId}::uuid and mined_block is not null
    union all
    select 1 from signer_nonces where redemption_id = ${redemptionId}::uuid and state = 'mined'
    limit 1`)
  if (mined.length > 0) throw new OrderConfirmedError({ orderId: redemptionId, mined: true })
  await recordRedemptionEvent(tx, {
    type: 'redemption.failed',
    redemptionId,
    status: 'cancelled',
    from: ['pending', 'submitted', 'failed'],
    data: { reason: 'cancelled' },
  })
  const updated = await tx.execute<{ status: string }>(sql`
    update redemptions set status = 'cancelled', updated_at = now()
    where id = ${redemptionId}::uuid and status in ('pending', 'submitted', 'failed')
    returning status::text as status`)
  if (updated[0])
    await tx.execute(sql`
      update vault_bars set redemption_id = null, updated_at = now()
      where redemption_id = ${redemptionId}::uuid and status in ('backing', 'missing')`)
  const held = await tx.execute<{ signer: string; nonce: string }>(sql`
    select signer_address as signer, nonce::text as nonce from signer_nonces
    where redemption_id = ${redemptionId}::uuid and state in ('reserved', 'signed') order by nonce limit 1`)
  let releasedNonce: CancelComplianceOperationReturnType['releasedNonce'] = null
  if (held[0]) {
    releasedNonce = { signer: held[0].signer, nonce: Number(held[0].nonce) }
    await wakeNonceHealth(tx)
  }
  return { previousStatus, status: updated[0]?.status ?? previousStatus, releasedNonce }
}
