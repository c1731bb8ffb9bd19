import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { NONCE_HEALTH_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { broadcastRawTx } from '../chain/broadcastRawTx'
import { readReceipt } from '../chain/readReceipt'
import { insertMissingNonces } from '../db/insertMissingNonces'
import { listNonceTxs } from '../db/listNonceTxs'
import { listOpenNonces, type OpenNonce } from '../db/listOpenNonces'
import { lockNonceHealth } from '../db/lockNonceHealth'
import { markTxBroadcast } from '../db/markTxBroadcast'
import { markTxMined } from '../db/markTxMined'
import { readMintOrderRow } from '../db/readMintOrderRow'
import { readSigner } from '../db/readSigner'
import { readSigningSwitch } from '../db/readSigningSwitch'
import { releaseCancelledNonces } from '../db/releaseCancelledNonces'
import { confirmOrderAlone } from '../mint/confirmOrderAlone'
import { fillNonceGap } from '../mint/fillNonceGap'
import { keepConfirmerAlive } from '../mint/keepConfirmerAlive'
import { newestTx } from '../mint/newestTx'
import { releaseNoncesOfFailedOrders } from '../mint/releaseNoncesOfFailedOrders'
import { verifyStoredTx } from '../mint/verifyStoredTx'
import type { SignerAccount, WorkerContext } from '../runtime/context'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'
import { releaseSupersededBars } from '../vault/releaseSupersededBars'

/**
 * The state one check hands to the next: per signer, the chain nonce last seen and
 * since when (to notice a stall), and the mismatches already reported (written once).
 */
export const nonceHealthPayload = z.object({
  seen: z.record(z.string(), z.object({ nonce: z.string(), since: z.number() })).optional(),
  reported: z.array(z.string()).optional(),
})
export type NonceHealthPayload = z.infer<typeof nonceHealthPayload>

/** dead after this many failures in a row; every worker's heartbeat revives it (worker/runtime/heartbeat.ts) */
export const NONCE_HEALTH_MAX_ATTEMPTS = 3

type Job = TaskRun<NonceHealthPayload>
type Seen = NonNullable<NonceHealthPayload['seen']>

/**
 * nonce_health, one job across all workers (job key nonce_health), every NONCE_HEALTH_MS.
 * Per signer it compares Postgres (next_nonce, signer_nonces) with the chain (`latest`
 * and `pending` transaction counts) and:
 * - settles used nonces nobody follows: a mint that neither its own order_confirm nor its
 *   signer's live signer_confirm follows gets an order_confirm (the chain wins: a mint that
 *   landed is confirmed whatever the order says), a gap fill is marked mined; a signer
 *   with submitted orders gets its signer_confirm back if it is gone or dead;
 * - releases the nonces of orders an admin cancelled (the web's cancel only marks the
 *   order and wakes this job: only the worker writes nonces), then fills released nonces
 *   and holes with a zero-value self-transfer;
 * - reports what it cannot repair (a nonce used by a transaction mintdesk did not sign,
 *   more transactions on chain than nonces handed out) as 'nonce_mismatch', once;
 * - notices a stall (the chain nonce has not moved for NONCE_STALL_AFTER_MS while we have
 *   transactions above it) and re-sends our stored transactions in nonce order, after
 *   anvil_dropAllTransactions when the node is anvil (whose pool can strand them).
 */
export const nonceHealth: TaskDefinition<NonceHealthPayload> = {
  name: TASK.nonceHealth,
  payload: nonceHealthPayload,
  run: async (ctx, job) => {
    const seen: Seen = { ...(job.payload.seen ?? {}) }
    const reported = new Set(job.payload.reported ?? [])
    const stalled: SignerAccount[] = []
    for (const signer of ctx.signers.values()) {
      job.checkpoint(`checking ${signer.address}`)
      if (await checkSigner(ctx, job, { signer, seen, reported })) stalled.push(signer)
    }
    if (stalled.length > 0) await recoverStall(ctx, job, { stalled })
    for (const freed of await releaseSupersededBars(ctx.db, { jobId: job.jobId, actor: job.actor }))
      job.log.info(freed, 'held bars of a failed or cancelled order freed')

    await ctx.db.transaction(async (tx) => {
      await lockNonceHealth(tx)
      await enqueueFollowUp(tx, {
        currentJobId: job.jobId,
        task: TASK.nonceHealth,
        jobKey: NONCE_HEALTH_JOB_KEY,
        payload: { seen, reported: [...reported].slice(-100) },
        runAt: new Date(Date.now() + ctx.settings.nonceHealthMs),
        maxAttempts: NONCE_HEALTH_MAX_ATTEMPTS,
        actor: job.actor,
      })
    })
  },
}

/** Returns whether the signer is stalled. */
async function checkSigner(
  ctx: WorkerContext,
  job: Job,
  { signer, seen, reported }: { signer: SignerAccount; seen: Seen; reported: Set<string> },
): Promise<boolean> {
  const row = await readSigner(ctx.db, { address: signer.address })
  if (!row) return false
  const [latestCount, pendingCount] = await Promise.all([
    ctx.chain.getTransactionCount({ address: signer.address, blockTag: 'latest' }),
    ctx.chain.getTransactionCount({ address: signer.address, blockTag: 'pending' }),
  ])
  const latest = BigInt(latestCount)
  const pending = BigInt(pendingCount)
  const next = row.nextNonce
  const log = job.log.child({ signer: signer.address })
  log.debug({ latest: latest.toString(), pending: pending.toString(), next: next.toString() }, 'nonce health')

  if (pending > next) {
    await reportOnce(ctx, job, reported, `${signer.address}:ahead:${next}`, {
      detail: `the chain counts ${pending} transactions of ${signer.address}, mintdesk handed out only ${next}: someone else uses this key`,
      data: { signer: signer.address, pending: pending.toString(), nextNonce: next.toString() },
    })
  }

  await insertMissingNonces(ctx.db, { signerAddress: signer.address, from: latest, to: next })
  await releaseNoncesOfCancelledOrders(ctx, job, { signer })
  await keepConfirmerAlive(ctx, { signerAddress: signer.address, actor: job.actor })
  await releaseNoncesOfFailedOrders(ctx, { signer, jobId: job.jobId, attempt: job.attempt, actor: job.actor })
  for (const open of await listOpenNonces(ctx.db, { signerAddress: signer.address })) {
    if (open.nonce < latest) await settleUsedNonce(ctx, job, { signer, open, reported })
    else if (open.state === 'released' && open.nonce < next) {
      const filled = await fillNonceGap(ctx, { signer, nonce: open.nonce, jobId: job.jobId, actor: job.actor })
      log.info({ nonce: open.nonce.toString(), filled }, 'released nonce filled')
    }
  }

  const key = signer.address
  if (next <= latest) {
    delete seen[key]
    return false
  }
  const previous = seen[key]
  const now = Date.now()
  if (!previous || previous.nonce !== latest.toString()) {
    seen[key] = { nonce: latest.toString(), since: now }
    return false
  }
  if (now - previous.since < ctx.settings.nonceStallAfterMs) return false
  seen[key] = { nonce: latest.toString(), since: now }
  log.warn({ latest: latest.toString(), next: next.toString(), stuckForMs: now - previous.since }, 'signer stalled')
  return true
}

/**
 * The nonces still bound to cancelled orders become `released`, each with a
 * 'nonce_released' event on its order's timeline, in one transaction of the worker's.
 */
async function releaseNoncesOfCancelledOrders(
  ctx: WorkerContext,
  job: Job,
  { signer }: { signer: SignerAccount },
): Promise<void> {
  const released = await ctx.db.transaction(async (tx) => {
    const rows = await releaseCancelledNonces(tx, { signerAddress: signer.address })
    for (const r of rows) {
      await recordJobEvent(tx, {
        event: 'nonce_released',
        task: TASK.nonceHealth,
        orderId: r.orderId,
        jobId: job.jobId,
        attempt: job.attempt,
        actor: job.actor,
        detail: `nonce ${r.nonce} of ${signer.address} released: its order was cancelled; the nonce health check fills it`,
        data: { signer: signer.address, nonce: r.nonce.toString() },
      })
    }
    return rows
  })
  for (const r of released)
    job.log.info({ nonce: r.nonce.toString(), orderId: r.orderId }, 'nonce of a cancelled order released')
}

/** A nonce below the chain's count: which of ours used it, and who still has to act on it. */
async function settleUsedNonce(
  ctx: WorkerContext,
  job: Job,
  { signer, open, reported }: { signer: SignerAccount; open: OpenNonce; reported: Set<string> },
): Promise<void> {
  // a mint its own order_confirm or its signer's signer_confirm follows: that job will see the receipt and confirm
  if (open.use === 'mint' && open.confirming && open.orderStatus !== 'cancelled') return
  const txs = await listNonceTxs(ctx.db, { signerAddress: signer.address, nonce: open.nonce })
  const receipts = await Promise.all(txs.map((t) => readReceipt(ctx.chain, { hash: t.hash })))
  const at = receipts.findIndex((r) => r !== null)
  const mined = txs[at]
  const receipt = receipts[at]
  if (!mined || !receipt) {
    await reportOnce(ctx, job, reported, `${signer.address}:used:${open.nonce}`, {
      detail: `nonce ${open.nonce} of ${signer.address} was used on chain, but by none of the ${txs.length} transaction(s) mintdesk signed for it`,
      data: { signer: signer.address, nonce: open.nonce.toString(), hashes: txs.map((t) => t.hash) },
      orderId: open.orderId,
    })
    return
  }
  const orderId = mined.orderId
  if (mined.kind === 'gap_fill' || !orderId) {
    await ctx.db.transaction((tx) =>
      markTxMined(tx, {
        signerAddress: signer.address,
        nonce: open.nonce,
        hash: mined.hash,
        blockNumber: receipt.blockNumber,
      }),
    )
    return
  }
  // a mint of ours is on chain and nobody follows it (failed, pending or cancelled order, or a dead order_confirm)
  const ensured = await ctx.db.transaction(async (tx) => {
    const order = await readMintOrderRow(tx, { orderId, lock: true })
    if (!order || order.status === 'confirmed') {
      await markTxMined(tx, {
        signerAddress: signer.address,
        nonce: open.nonce,
        hash: mined.hash,
        blockNumber: receipt.blockNumber,
      })
      return undefined
    }
    return confirmOrderAlone(tx, ctx, {
      orderId,
      actor: job.actor,
      detail: `nonce health: ${mined.hash} is mined, the order is ${order.status}`,
      revive: true,
    })
  })
  if (ensured && ensured.action !== 'exists')
    job.log.warn(
      { orderId, hash: mined.hash, action: ensured.action },
      'mined mint without a confirmation job: confirming it',
    )
}

/**
 * The node is not mining our next nonce: empty its pool if it is anvil (whose "queued"
 * pool can strand transactions), then send every stored transaction from the chain's
 * nonce upwards again, in nonce order, for every signer whose pool was dropped. While the stop
 * switch is on, only transactions sent before are sent again: one never broadcast waits for the resume.
 */
async function recoverStall(ctx: WorkerContext, job: Job, { stalled }: { stalled: SignerAccount[] }): Promise<void> {
  const node = await ctx.node()
  if (node.isAnvil) {
    // PublicClient's request is typed for the standard methods
    // only; anvil_dropAllTransactions takes no params, returns null
    const request = ctx.chain.request as unknown as (args: { method: string; params?: unknown[] }) => Promise<unknown>
    await request({ method: 'anvil_dropAllTransactions', params: [] })
  }
  const targets = node.isAnvil ? [...ctx.signers.values()] : stalled
  const { stopped } = await readSigningSwitch(ctx.db, { share: false })
  for (const signer of targets) {
    const row = await readSigner(ctx.db, { address: signer.address })
    if (!row) continue
    const latest = BigInt(await ctx.chain.getTransactionCount({ address: signer.address, blockTag: 'latest' }))
    let resent = 0
    const failures: string[] = []
    for (let nonce = latest; nonce < row.nextNonce; nonce++) {
      const txs = await listNonceTxs(ctx.db, { signerAddress: signer.address, nonce })
      if (txs.length === 0) continue
      if (stopped && txs.every((t) => t.broadcastAt === null)) continue
      const tx = newestTx(txs)
      try {
        await verifyStoredTx(ctx, { tx }) // a mismatch is not sent: it lands in `failures`
        await broadcastRawTx(ctx.chain, {
          raw: tx.rawTx,
          hash: tx.hash,
          signerAddress: signer.address,
          nonce,
          siblings: txs.filter((t) => t.hash !== tx.hash).map((t) => t.hash),
        })
        await markTxBroadcast(ctx.db, { hash: tx.hash })
        resent++
      } catch (error) {
        failures.push(`${nonce}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`)
      }
    }
    await recordJobEvent(ctx.db, {
      event: 'stalled',
      task: TASK.nonceHealth,
      jobId: job.jobId,
      attempt: job.attempt,
      actor: job.actor,
      detail: `${signer.address}: nonce ${latest} not mined for ${ctx.settings.nonceStallAfterMs} ms; ${node.isAnvil ? 'anvil pool dropped, ' : ''}re-sent ${resent} stored transaction(s) from nonce ${latest} to ${row.nextNonce - 1n}`,
      data: { signer: signer.address, from: latest.toString(), to: (row.nextNonce - 1n).toString(), resent, failures },
    })
    job.log.warn(
      { signer: signer.address, resent, failures },
      'stall recovery: stored transactions re-sent in nonce order',
    )
  }
}

async function reportOnce(
  ctx: WorkerContext,
  job: Job,
  reported: Set<string>,
  key: string,
  p: { detail: string; data: Record<string, unknown>; orderId?: string | null },
): Promise<void> {
  job.log.error({ ...p.data }, p.detail)
  if (reported.has(key)) return
  reported.add(key)
  await recordJobEvent(ctx.db, {
    event: 'nonce_mismatch',
    task: TASK.nonceHealth,
    orderId: p.orderId ?? null,
    jobId: job.jobId,
    attempt: job.attempt,
    actor: job.actor,
    detail: p.detail,
    data: p.data,
  })
}
