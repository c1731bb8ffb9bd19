import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { wakeNonceHealth } from '@/lib/jobs/wakeNonceHealth'
import { recordComplianceEvent } from '@/lib/notifications/recordComplianceEvent'
import { OrderConfirmedError } from '@/lib/web/errors/admin'
import type { ApiCancelResult } from './apiTypes'

export type CancelComplianceOperationParameters = { operationId: string }

export type CancelComplianceOperationReturnType = {
  previousStatus: string | null
  status: string | null
  releasedNonce: ApiCancelResult['releasedNonce']
}

/**
 * The compliance operation of a compliance_send job an admin cancels, in the cancel's transaction (lib/web/admin/
 * cancelJob.ts): locked; applied, or its call known to be mined -> 409 order_confirmed; else `cancelled` with its
 * compliance.failed event (status cancelled, reason cancelled). A nonce it holds (reserved or signed, not mined) is
 * reported and the nonce health job woken: the worker releases and fills it (releaseCancelledNonces), since the web
 * writes no nonce (invariant 7).
 */
export async function cancelComplianceOperation(
  tx: Tx,
  { operationId }: CancelComplianceOperationParameters,
): Promise<CancelComplianceOperationReturnType> {
  const rows = await tx.execute<{ status: string }>(
    sql`select status::text as status from compliance_operations where id = ${operationId}::uuid for update`,
  )
  const previousStatus = rows[0]?.status ?? null
  if (previousStatus === 'applied') throw new OrderConfirmedError({ orderId: operationId })
  const mined = await tx.execute<{ one: number }>(sql`
    select 1 as one from chain_txs where compliance_operation_id = ${operationId}::uuid and mined_block is not null
    union all
    select 1 from signer_nonces where compliance_operation_id = ${operationId}::uuid and state = 'mined'
    limit 1`)
  if (mined.length > 0) throw new OrderConfirmedError({ orderId: operationId, mined: true })
  await recordComplianceEvent(tx, {
    type: 'compliance.failed',
    operationId,
    status: 'cancelled',
    from: ['pending', 'submitted', 'failed'],
    data: { reason: 'cancelled' },
  })
  const updated = await tx.execute<{ status: string }>(sql`
    update compliance_operations set status = 'cancelled', updated_at = now()
    where id = ${operationId}::uuid and status in ('pending', 'submitted', 'failed')
    returning status::text as status`)
  const held = await tx.execute<{ signer: string; nonce: string }>(sql`
    select signer_address as signer, nonce::text as nonce from signer_nonces
    where compliance_operation_id = ${operationId}::uuid and state in ('reserved', 'signed') order by nonce limit 1`)
  let releasedNonce: ApiCancelResult['releasedNonce'] = null
  if (held[0]) {
    releasedNonce = { signer: held[0].signer, nonce: Number(held[0].nonce) }
    await wakeNonceHealth(tx)
  }
  return { previousStatus, status: updated[0]?.status ?? previousStatus, releasedNonce }
}
