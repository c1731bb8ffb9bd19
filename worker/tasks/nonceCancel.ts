import { eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import { controlChanges } from '@/db/schema/controlChanges'
import { onChainChangeParamsSchemas } from '@/lib/changes/onChainChanges'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import type { NonceCancelPayload } from '@/lib/jobs/payloadTypes'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { wakeNonceHealth } from '@/lib/jobs/wakeNonceHealth'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { releaseBars } from '@/lib/vault/releaseBars'
import { listControlChangeSignatures } from '../db/listControlChangeSignatures'
import { buildControlChangeCall } from '../operations/controlChange/buildControlChangeCall'
import { readAdminRules } from '../operations/controlChange/readAdminRules'
import type { TaskDefinition } from '../runtime/runTask'

export const nonceCancelPayload = z.object({ changeId: z.uuid() }) satisfies z.ZodType<NonceCancelPayload>

/**
 * nonce_cancel (decision 064): a `nonce.cancel` change two admins signed. Trusting no row the web wrote alone, the
 * change's ControlChange is rebuilt from its params and every stored signature verified again against GoldMinter's
 * admin set and threshold (buildControlChangeCall; its calldata is never sent: GoldMinter knows no cancelNonce).
 * Then in ONE transaction, under the change's, the nonce's and the order's locks: the mint bound to the nonce
 * becomes `cancelled` as an admin's job cancel makes it (its mint.failed event, its bars freed or held while its
 * signed mint can still land, a 'cancelled' timeline event), the change `applied`, and the nonce health job woken:
 * it releases the nonce and fills it with the zero-value self-transfer that outbids the mint (fillNonceGap). Should
 * the mint be mined first, the chain wins and the order is confirmed. A nonce no longer a pending mint's: the
 * change `failed`, nothing cancelled. Too few valid signatures: a dead letter, nothing cancelled.
 */
export const nonceCancel: TaskDefinition<NonceCancelPayload> = {
  name: TASK.nonceCancel,
  payload: nonceCancelPayload,
  orderIdOf: (p) => p.changeId,
  run: async (ctx, job) => {
    const { changeId } = job.payload
    const [row] = await ctx.db.select().from(controlChanges).where(eq(controlChanges.id, changeId))
    if (row?.kind !== 'nonce.cancel') throw new PermanentJobError(`no nonce.cancel change ${changeId}`)
    if (row.status !== 'pending') {
      job.log.info({ changeId, status: row.status }, 'nonce cancel already decided')
      return
    }
    const signatures = (await listControlChangeSignatures(ctx.db, { ids: [changeId] })).get(changeId) ?? []
    // the admins' keys by the chain's word: too few valid signatures is a permanent refusal
    await buildControlChangeCall(ctx, { change: row, signatures, rules: await readAdminRules(ctx) })
    const params = onChainChangeParamsSchemas['nonce.cancel'].parse(row.params)
    const event = { task: TASK.nonceCancel, jobId: job.jobId, attempt: job.attempt, actor: job.actor }
    await ctx.db.transaction(async (tx) => {
      const locked = await tx.execute<{ status: string }>(
        sql`select status::text as status from control_changes where id = ${changeId}::uuid for update`,
      )
      if (locked[0]?.status !== 'pending') return
      const bound = await tx.execute<{ order_id: string | null; use: string; state: string }>(sql`
        select order_id::text as order_id, use::text as use, state::text as state from signer_nonces
        where lower(signer_address) = ${params.signerAddress.toLowerCase()} and nonce = ${params.nonce}
        for update`)
      const nonce = bound[0]
      const orderId = nonce?.use === 'mint' && ['reserved', 'signed'].includes(nonce.state) ? nonce.order_id : null
      const orders = orderId
        ? await tx.execute<{ status: string }>(
            sql`select status::text as status from mint_orders where id = ${orderId}::uuid for update`,
          )
        : []
      const mined = orderId
        ? await tx.execute(sql`select 1 from chain_txs where order_id = ${orderId}::uuid and mined_block is not null`)
        : []
      const status = orders[0]?.status
      if (!orderId || (status !== 'pending' && status !== 'submitted') || mined.length > 0) {
        const reason = `nonce ${params.nonce} of ${params.signerAddress} is no longer a pending mint's (${status ?? nonce?.state ?? 'not handed out'}): nothing cancelled`
        await tx
          .update(controlChanges)
          .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
          .where(eq(controlChanges.id, changeId))
        await recordJobEvent(tx, { ...event, orderId: changeId, event: 'refused', detail: reason })
        return
      }
      await recordMintEvent(tx, {
        type: 'mint.failed',
        orderId,
        status: 'cancelled',
        from: ['pending', 'submitted'],
        data: { reason: 'cancelled' },
      })
      await tx.execute(sql`update mint_orders set status = 'cancelled', updated_at = now() where id = ${orderId}::uuid`)
      await releaseBars(tx, { orderId, timeline: { task: TASK.nonceCancel, actor: job.actor } })
      const detail = `nonce ${params.nonce} of ${params.signerAddress} cancelled by ${row.authorEmail} and ${row.decidedByEmail ?? 'a second admin'} (change ${changeId}): the nonce health check fills it with a zero-value self-transfer`
      await recordJobEvent(tx, {
        ...event,
        orderId,
        event: 'cancelled',
        detail,
        data: { changeId, nonce: params.nonce },
      })
      await tx
        .update(controlChanges)
        .set({ status: 'applied', updatedAt: new Date() })
        .where(eq(controlChanges.id, changeId))
      await wakeNonceHealth(tx)
    })
  },
}
