import { sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { completeJobs } from '@/lib/jobs/completeJobs'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'
import { TASK } from '@/lib/jobs/jobKeys'
import { lockLiveJobs } from '@/lib/jobs/lockLiveJobs'
import { readOrderIdOfJob } from '@/lib/jobs/readOrderIdOfJob'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { wakeNonceHealth } from '@/lib/jobs/wakeNonceHealth'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { releaseBars } from '@/lib/vault/releaseBars'
import { JobNotCancellableError, JobRunningError, OrderConfirmedError } from '@/lib/web/errors/admin'
import { NotFoundError } from '@/lib/web/errors/resource'
import { lockSqsJobs } from '@/lib/web/queue/lockSqsJobs'
import type { ApiCancelResult } from './apiTypes'
import { type CancelComplianceOperationReturnType, cancelComplianceOperation } from './cancelComplianceOperation'
import { cancelRedemption } from './cancelRedemption'

/** the operations a send job carries instead of a mint order, by the job's task: how a cancel cancels each */
const OPERATION_CANCELS: Readonly<
  Record<string, (tx: Tx, id: string) => Promise<CancelComplianceOperationReturnType>>
> = {
  [TASK.complianceSend]: (tx, id) => cancelComplianceOperation(tx, { operationId: id }),
  [TASK.redemptionSend]: (tx, id) => cancelRedemption(tx, { redemptionId: id }),
}

export type CancelJobParameters = { jobId: bigint; actor: AdminActor }

export type CancelJobReturnType = ApiCancelResult

/**
 * Stops a job for good, and with it its order, in ONE transaction:
 * - every live job of the order (mint_send, order_confirm; or just this job when it has
 *   no order) is read under a row lock; if a worker holds any of them -> 409
 *   `job_running`, nothing changes (a running job is never touched);
 * - an order that is confirmed, or whose transaction is known to be mined -> 409
 *   `order_confirmed`;
 * - the jobs leave graphile-worker's table (completeJobs on rows we
 *   hold unlocked), their history rows become `cancelled`, the order `cancelled`; an SQS
 *   job (decision 021) is cancelled the same way, its outbox row's generation bumped so
 *   that its messages (in the queue or the dead-letter queue) are stale: deleted unrun,
 *   dropped from the DLQ, refused by the dead-letter page's retry;
 * - a nonce reserved or signed for the order and not mined is reported (`releasedNonce`)
 *   and the nonce health job woken: the WORKER releases it and fills it with a zero-value
 *   self-transfer at a higher fee, in its own transaction, so the signer's later nonces
 *   are not stuck behind a gap (invariant 3). The web does not write nonces (invariant 7:
 *   its database role cannot; docs/decisions/026-nonces-in-postgres.md);
 * - a compliance_send job: its compliance operation is cancelled instead (cancelComplianceOperation), no order;
 *   a redemption_send job: its redemption (cancelRedemption), its deposit and bars freed;
 * - a 'cancelled' timeline event per job and one audit row, naming the admin; the order's
 *   `mint.failed` notification event (status `cancelled`, reason `cancelled`), so its requester
 *   is emailed (docs/decisions/053-outcomes-reach-the-requester.md).
 * docs/decisions/027-admin-job-states.md discusses the race with a mint mined anyway.
 */
export async function cancelJob(db: DbOrTx, { jobId, actor }: CancelJobParameters): Promise<CancelJobReturnType> {
  return db.transaction(async (tx) => {
    const id = jobId.toString()
    const orderId = await readOrderIdOfJob(tx, { jobId })

    // every live job of the order, locked in id order (the same order retryJobs uses): graphile-worker's, and
    // the SQS ones (decision 021: in the history and the outbox only), which the consumer locks as it starts one
    const graphileJobs = await lockLiveJobs(tx, { jobIds: [jobId], orderId })
    const sqsJobs = await lockSqsJobs(tx, { jobIds: [jobId], orderId })
    const jobs = [...graphileJobs, ...sqsJobs]
    if (!jobs.some((j) => j.jobId === jobId)) {
      const history = await tx.execute<{ state: string }>(
        sql`select state from job_records where job_id = ${id}::bigint`,
      )
      const state = history[0]?.state
      if (state === undefined) throw new NotFoundError({ what: 'Job' })
      throw new JobNotCancellableError({ jobId: id, state: state === 'cancelled' ? 'cancelled' : 'done' })
    }
    // the signer's confirmer follows every in-flight order of the signer: cancelling it would cancel none of them
    const target = jobs.find((j) => j.jobId === jobId)
    if (target?.task === TASK.signerConfirm) {
      throw new JobNotCancellableError({
        jobId: id,
        state: target.state,
        message: `Job ${id} confirms every in-flight order of its signer; it cannot be cancelled. An order the confirmer cannot settle gets a job of its own (order_confirm), which can.`,
      })
    }
    const running = jobs.find((j) => j.state === 'running')
    if (running) {
      throw new JobRunningError({
        jobId: id,
        message:
          running.jobId === jobId
            ? `Job ${id} is running on a worker right now (${running.lockedBy ?? 'unknown worker'}); it cannot be cancelled. Wait until it finishes or fails.`
            : `Job ${running.jobId} of the same order is running on a worker right now; the order cannot be cancelled until it finishes or fails.`,
      })
    }

    let previousOrderStatus: string | null = null
    let releasedNonce: ApiCancelResult['releasedNonce'] = null
    let orderStatus: string | null = null
    // a compliance_send or redemption_send job's id is its operation's: that operation is cancelled, no mint order
    const cancelOperation = target ? OPERATION_CANCELS[target.task] : undefined
    const compliance = orderId !== null && cancelOperation !== undefined
    if (orderId && cancelOperation) {
      const cancelled = await cancelOperation(tx, orderId)
      previousOrderStatus = cancelled.previousStatus
      orderStatus = cancelled.status
      releasedNonce = cancelled.releasedNonce
    } else if (orderId) {
      const orders = await tx.execute<{ status: string }>(
        sql`select status::text as status from mint_orders where id = ${orderId}::uuid for update`,
      )
      previousOrderStatus = orders[0]?.status ?? null
      if (previousOrderStatus === 'confirmed') throw new OrderConfirmedError({ orderId })
      const mined = await tx.execute<{ one: number }>(sql`
        select 1 as one from chain_txs where order_id = ${orderId}::uuid and mined_block is not null
        union all
        select 1 from signer_nonces where order_id = ${orderId}::uuid and state = 'mined'
        limit 1`)
      if (mined.length > 0) throw new OrderConfirmedError({ orderId, mined: true })
    }

    const ids = jobs.map((j) => j.jobId)
    const graphileIds = graphileJobs.map((j) => j.jobId)
    const removed = await completeJobs(tx, { jobIds: graphileIds })
    if (removed.length !== graphileIds.length) {
      // cannot happen while we hold the row locks of unlocked jobs; never commit half a cancel
      throw new JobRunningError({ jobId: id })
    }
    // an SQS job's messages, in the queue or its dead-letter queue, are stale from now on: the consumer
    // deletes them unrun, the DLQ scan drops them, the dead-letter page refuses them
    if (sqsJobs.length > 0)
      await tx.execute(sql`
        update sqs_outbox set generation = generation + 1 where job_id = any(${jobIdArraySql(sqsJobs.map((j) => j.jobId))})`)

    if (orderId && !compliance) {
      // before the update, so it is written only for an order becoming cancelled (not one already cancelled)
      await recordMintEvent(tx, {
        type: 'mint.failed',
        orderId,
        status: 'cancelled',
        from: ['pending', 'submitted', 'failed'],
        data: { reason: 'cancelled' },
      })
      const updated = await tx.execute<{ status: string }>(sql`
        update mint_orders set status = 'cancelled', updated_at = now()
        where id = ${orderId}::uuid returning status::text as status`)
      orderStatus = updated[0]?.status ?? null
      await releaseBars(tx, { orderId, timeline: { task: TASK.mintSend, actor: actor.email } })
      // the nonce the order holds: the worker's nonce health check releases and fills it
      // (the order is cancelled from now on), woken to do it at once
      const held = await tx.execute<{ signer: string; nonce: string }>(sql`
        select signer_address as signer, nonce::text as nonce from signer_nonces
        where order_id = ${orderId}::uuid and state in ('reserved', 'signed') order by nonce limit 1`)
      if (held[0]) {
        releasedNonce = { signer: held[0].signer, nonce: Number(held[0].nonce) }
        await wakeNonceHealth(tx)
      }
    }

    for (const job of jobs) {
      const jid = job.jobId.toString()
      await tx.execute(sql`
        insert into job_records (job_id, task, order_id, state, attempts, max_attempts, last_error, finished_at)
        values (${jid}::bigint, ${job.task}, ${job.orderId}::uuid, 'cancelled', ${job.attempts}, ${job.originalMaxAttempts}, ${job.lastError}, now())
        on conflict (job_id) do update set state = 'cancelled', attempts = excluded.attempts, updated_at = now(), finished_at = now()`)
      const parts = [`Cancelled by ${actor.email}`]
      if (job.jobId !== jobId) parts.push(`with job ${id} of the same order`)
      if (orderId)
        parts.push(
          compliance
            ? `${target?.task === TASK.redemptionSend ? 'redemption' : 'compliance operation'} cancelled`
            : 'order cancelled',
        )
      if (releasedNonce)
        parts.push(`nonce ${releasedNonce.nonce} of ${releasedNonce.signer} handed to the worker to release and fill`)
      await recordJobEvent(tx, {
        event: 'cancelled',
        task: job.task,
        jobId: job.jobId,
        orderId: job.orderId ?? orderId,
        attempt: job.attempts,
        actor: actor.email,
        detail: parts.join('; '),
        data: { previousState: job.state, releasedNonce },
      })
    }
    const cancelledJobIds = ids.map((x) => x.toString())
    await recordAudit(tx, {
      actor,
      action: 'job.cancel',
      targetType: 'job',
      targetId: id,
      detail: { orderId, previousOrderStatus, cancelledJobIds, releasedNonce },
    })
    return { jobId: id, state: 'cancelled', orderId, orderStatus, cancelledJobIds, releasedNonce }
  })
}
