import { EventEmitter } from 'node:events'
import os from 'node:os'
import { type Runner, run, type TaskList, type WorkerEvents, type WorkerPool } from 'graphile-worker'
import { type Address, getAddress } from 'viem'
import { createDb } from '@/db/client'
import { createChainClient } from '@/lib/chain/createChainClient'
import { checkRuntimeDatabase } from '@/lib/config/checkRuntimeDatabase'
import type { Config } from '@/lib/config/loadConfig'
import { WorkerError, WorkerStartError } from '@/lib/errors/jobs'
import { TASK, TASKS_RENAMED } from '@/lib/jobs/jobKeys'
import { startMetricsFlush } from '@/lib/ops/startMetricsFlush'
import { startFaultCountFlush } from '@/worker/ops/startFaultCountFlush'
import { startQueueMetrics } from '@/worker/ops/startQueueMetrics'
import { createKmsClient } from '@/worker/signer/createKmsClient'
import { readNodeInfo } from '../chain/readNodeInfo'
import { markWorkerStopped } from '../db/markWorkerStopped'
import { registerSigner } from '../db/registerSigner'
import { upsertWorker } from '../db/upsertWorker'
import { createSendBatcher, type SendBatcher } from '../mint/createSendBatcher'
import { resyncSignerNonces } from '../mint/resyncSignerNonces'
import { sendClaimingBatch } from '../mint/sendClaimingBatch'
import type { OperationRow } from '../operations/OperationKind'
import type { SendQueue } from '../operations/SendQueue'
import { reconcileChainEvents } from '../reconciliation/reconcileChainEvents'
import { createKmsAccount } from '../signer/createKmsAccount'
import { createSignRateLimiter } from '../signer/createSignRateLimiter'
import { startSqsTransport } from '../sqs/startSqsTransport'
import { complianceSendQueue } from '../tasks/complianceSend'
import { controlSendQueue } from '../tasks/controlSend'
import { depositWatch } from '../tasks/depositWatch'
import { emailSend } from '../tasks/emailSend'
import { mintSendQueue } from '../tasks/mintSend'
import { nonceCancel } from '../tasks/nonceCancel'
import { nonceHealth } from '../tasks/nonceHealth'
import { nonceResync } from '../tasks/nonceResync'
import { nonceSpeedUp } from '../tasks/nonceSpeedUp'
import { notifyDispatch } from '../tasks/notifyDispatch'
import { orderConfirm } from '../tasks/orderConfirm'
import { redemptionSendQueue } from '../tasks/redemptionSend'
import { reserveCheck } from '../tasks/reserveCheck'
import { sendTask } from '../tasks/sendTask'
import { signerConfirm } from '../tasks/signerConfirm'
import { webhookDeliver } from '../tasks/webhookDeliver'
import { checkDeployBlock } from './checkDeployBlock'
import { connectChain } from './connectChain'
import type { NodeInfo, SignerAccount, WorkerContext } from './context'
import { createFailpoint } from './failpoints'
import { graphileLogger } from './graphileLogger'
import { startHeartbeat } from './heartbeat'
import type { WorkerLogger } from './logger'
import { requireMintLimits } from './requireMintLimits'
import { runTask } from './runTask'
import { SLOT_POLL_FALLBACK_MS, startPoolPoll } from './startPoolPoll'
import { wakeWhenReleased } from './wakeWhenReleased'

export type StartWorkerParameters = {
  config: Config
  log: WorkerLogger
  /** the runner stopped on its own (lost its database, ...) or this worker was fenced: exit non-zero */
  onFatal: (error: Error) => void
}

export type RunningWorker = {
  /** the graphile-worker pool id: `locked_by` of this worker's jobs, id of its heartbeat row */
  workerId: string
  /** graceful: stop taking jobs, let running ones finish (abort after a while), mark stopped, close */
  stop: (reason: string) => Promise<void>
}

/**
 * Builds and starts one worker process: database pool, chain client, KMS signers
 * (registered in `signers`, a new one starting at the chain's pending nonce),
 * graphile-worker with its tasks behind runTask, the heartbeat row and the sweep.
 */
export async function startWorker({ config, log, onFatal }: StartWorkerParameters): Promise<RunningWorker> {
  const { rpcUrls, tokenAddress, minterAddress } = config
  if (rpcUrls.length === 0 || !tokenAddress || !minterAddress)
    throw new WorkerStartError('RPC_URL (or RPC_URLS), TOKEN_ADDRESS and MINTER_ADDRESS are required')
  const settings = config.worker
  const { db, close: closeDb } = createDb({
    url: config.databaseUrl,
    max: settings.concurrency + 4,
    name: 'mintdesk-worker',
    requireMintLimits: config.production,
  })
  const kms = createKmsClient({ region: config.awsRegion, endpoint: config.kmsEndpoint })
  const cleanup = async () => {
    kms.destroy()
    await closeDb()
  }

  try {
    await requireMintLimits(db, { production: config.production })
    // production: no privilege beyond tableGrants, the web's MINTER_ADDRESS (ConfigError naming the variable)
    await checkRuntimeDatabase(db, {
      role: 'worker',
      production: config.production,
      minterAddress,
    })
    const chainId = await connectChain({ rpcUrls, expected: config.chainId, log })
    const chain = createChainClient({
      rpcUrls,
      chainId,
      pollingMs: config.rpcPollingMs,
      healthMs: config.rpcHealthMs,
      maxLagBlocks: config.rpcMaxLagBlocks,
    })
    // the chain followers start there: one after the token's deployment would never read its first events
    await checkDeployBlock(chain, { tokenAddress: getAddress(tokenAddress), deployBlock: config.tokenDeployBlock, log })

    // one KMS budget for the whole process: every key's signatures wait for it, throttles retried
    const { ratePerKey, ratePerProcess, throttleBudgetMs } = settings.kmsSign
    const kmsSignPolicy = {
      limiter: createSignRateLimiter({ perKey: ratePerKey, perProcess: ratePerProcess }),
      throttleBudgetMs,
    }
    const signers = new Map<Address, SignerAccount>()
    for (const keyId of config.kmsKeyIds) {
      const account = await createKmsAccount(kms, { keyId, policy: kmsSignPolicy })
      const address = getAddress(account.address)
      const row = await registerSigner(db, {
        address,
        kmsKeyId: keyId,
        chainId,
        initialNonce: async () => BigInt(await chain.getTransactionCount({ address, blockTag: 'pending' })),
      })
      signers.set(address, { address, keyId, account })
      log.info({ signer: address, keyId, nextNonce: row.nextNonce.toString(), active: row.active }, 'signer ready')
    }

    let workerId = 'starting'
    let node: NodeInfo | undefined
    let pool: WorkerPool | undefined
    let running = 0
    let confirmerRuns = 0
    // graphile-worker asserts that a terminated worker is never nudged
    const poolStopped = () => !pool || pool._shuttingDown
    const wakeAt = (at: Date) => {
      // unref'd: a pending wake-up never keeps a stopping process alive; none once the pool stops
      setTimeout(
        () => {
          if (!pool || poolStopped()) return
          try {
            pool.nudge(1)
          } catch (error) {
            log.debug({ err: error }, 'wake-up not delivered: the pool is stopping')
          }
        },
        Math.max(0, at.getTime() - Date.now()),
      ).unref()
    }
    const ctx: WorkerContext = {
      db,
      chain,
      chainId,
      tokenAddress: getAddress(tokenAddress),
      minterAddress: getAddress(minterAddress),
      deployBlock: config.tokenDeployBlock,
      confirmations: config.confirmations,
      signers,
      settings,
      log,
      workerId: () => workerId,
      failpoint: createFailpoint({ names: settings.failpoints, log }),
      node: async () => (node ??= await readNodeInfo(chain)),
      notify: { settings: config.notifications, production: config.production },
      wakeAt,
      crowdedByConfirmers: () => running >= settings.concurrency && confirmerRuns * 2 >= settings.concurrency,
      fatal: onFatal,
    }

    // before this worker takes a job: signers the chain is ahead of (a database restore) are resynced, so no batch
    // signs a spent nonce, and mints the database forgot are confirmed from the chain (decision 063)
    const resynced = await resyncSignerNonces(ctx, { actor: 'worker-start' })
    log.info(
      {
        signers: resynced.map((s) => ({
          address: s.address,
          dbNonce: s.dbNonce.toString(),
          chainNonce: s.chainNonce.toString(),
          resynced: s.resynced !== null,
        })),
      },
      'signer nonces checked against the chain',
    )
    try {
      const events = await reconcileChainEvents(ctx, { actor: 'worker-start' })
      log.info(
        { toBlock: events.toBlock.toString(), confirmed: events.confirmed.length, unreconciled: events.unreconciled },
        'chain events reconciled at start',
      )
    } catch (error) {
      // the periodic nonce_resync reads them again; a mint_send of a forgotten order is refused by the token anyway
      log.error({ err: error }, 'chain events not reconciled at start')
    }

    // one send batcher per kind and process: the gate is the process's, whichever job slot an operation runs in
    const batchers: SendBatcher[] = []
    const sendTaskOf = <Row extends OperationRow, P extends Record<string, unknown>>(queue: SendQueue<Row, P>) => {
      const batcher = createSendBatcher({
        maxBatch: settings.sendBatch,
        lingerMs: 0,
        backlogGates: 4,
        run: (p) => sendClaimingBatch(ctx, { queue, ...p }),
      })
      batchers.push(batcher)
      return runTask(ctx, sendTask({ queue, batcher }))
    }
    const graceAbortMs = Math.min(10_000, Math.floor(settings.shutdownGraceMs / 2))

    const events: WorkerEvents = new EventEmitter()
    events.on('pool:create', ({ workerPool }) => {
      workerId = workerPool.id
      pool = workerPool
    })
    events.on('job:start', ({ job }) => {
      running++
      if (isSignerConfirm(job.task_identifier)) confirmerRuns++
    })
    events.on('job:complete', ({ job }) => {
      running = Math.max(0, running - 1)
      if (isSignerConfirm(job.task_identifier)) confirmerRuns = Math.max(0, confirmerRuns - 1)
      // a job of a named queue (a notification lane): wake a worker for the lane's next job
      // once the batched completion has released the queue
      if (job.job_queue_id !== null) {
        void wakeWhenReleased(db, { jobId: BigInt(job.id), wake: () => wakeAt(new Date()), stopped: poolStopped, log })
      }
    })
    // QUEUE_TRANSPORT=sqs: mint_send is SQS's, graphile-worker's slots serve the confirmers, the notifications and
    // the housekeeping and mostly sit idle; the pool then polls as one (startPoolPoll), each slot's own poll a fallback
    const poolPolls = config.sqs !== undefined
    const runner: Runner = await run({
      connectionString: config.databaseUrl,
      concurrency: settings.concurrency,
      maxPoolSize: settings.concurrency + 2,
      pollInterval: poolPolls ? Math.max(SLOT_POLL_FALLBACK_MS, settings.pollMs) : settings.pollMs,
      noHandleSignals: true,
      gracefulShutdownAbortTimeout: graceAbortMs,
      logger: graphileLogger(log),
      events,
      // batchers with delay 0 rather than none: graphile-worker 0.17 does not await an
      // unbatched completeJob/failJob, so a job finishing during a graceful shutdown could
      // stay locked after the pool closed; a batcher is flushed before the pool ends
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      taskList: withRenamedTasks({
        [TASK.mintSend]: sendTaskOf(mintSendQueue),
        [TASK.controlSend]: sendTaskOf(controlSendQueue),
        [TASK.redemptionSend]: sendTaskOf(redemptionSendQueue),
        [TASK.complianceSend]: sendTaskOf(complianceSendQueue),
        [TASK.depositWatch]: runTask(ctx, depositWatch),
        [TASK.orderConfirm]: runTask(ctx, orderConfirm),
        [TASK.signerConfirm]: runTask(ctx, signerConfirm),
        [TASK.nonceHealth]: runTask(ctx, nonceHealth),
        [TASK.nonceResync]: runTask(ctx, nonceResync),
        [TASK.nonceCancel]: runTask(ctx, nonceCancel),
        [TASK.nonceSpeedUp]: runTask(ctx, nonceSpeedUp),
        [TASK.reserveCheck]: runTask(ctx, reserveCheck),
        // notifications: lanes of NOTIFY_CONCURRENCY queues, priority after the mints
        [TASK.notifyDispatch]: runTask(ctx, notifyDispatch),
        [TASK.webhookDeliver]: runTask(ctx, webhookDeliver),
        [TASK.emailSend]: runTask(ctx, emailSend),
      }),
    })
    const poolPoll = poolPolls ? startPoolPoll({ wakeOne: () => wakeAt(new Date()), everyMs: settings.pollMs }) : null
    const id = workerId
    await upsertWorker(db, { id, host: os.hostname(), pid: process.pid })
    log.info({ workerId: id, concurrency: settings.concurrency, signers: [...signers.keys()] }, 'worker started')
    // QUEUE_TRANSPORT=sqs: mint_send also comes from SQS (outbox relay, consumer, DLQ scan)
    const sqs = config.sqs
      ? await startSqsTransport(ctx, {
          sqs: config.sqs,
          region: config.awsRegion,
          shutdownGraceMs: settings.shutdownGraceMs,
        })
      : null

    // this process's own counters and histograms (KMS calls, Sign time) into metric_series
    const metricsFlush = startMetricsFlush(db, {
      role: 'worker',
      onError: (err) => log.warn({ err }, 'metric_series flush failed'),
    })
    // the queue_metrics log line the production alarms (dead letters, oldest queued age) read
    const queueMetrics = startQueueMetrics(db, {
      log: (fields, msg) => log.info(fields, msg),
      onError: (err) => log.warn({ err }, 'queue_metrics read failed'),
    })

    // KMS throttles and RPC retries of this process, to job_events for the admin metrics
    const faultCounts = startFaultCountFlush(db, {
      actor: id,
      onError: (err) => log.warn({ err }, 'fault counts not written yet'),
    })

    let stopping: Promise<void> | undefined
    const heartbeat = startHeartbeat(db, {
      workerId: id,
      heartbeatMs: settings.heartbeatMs,
      staleAfterMs: settings.staleAfterMs,
      retentionMonths: settings.retentionMonths,
      log,
      onFenced: (reason) => onFatal(new WorkerError(`fenced: ${reason}`)),
    })
    runner.promise.then(
      () => {
        if (!stopping) onFatal(new WorkerError('graphile-worker stopped on its own'))
      },
      (error: unknown) => {
        if (!stopping) onFatal(error instanceof Error ? error : new WorkerError(String(error)))
      },
    )

    const stop = (reason: string): Promise<void> => {
      stopping ??= (async () => {
        log.info({ reason, graceMs: settings.shutdownGraceMs }, 'shutting down: no new jobs, waiting for running ones')
        poolPoll?.stop()
        const sqsStopped = sqs
          ?.stop()
          .catch((error: unknown) => log.error({ err: error }, 'sqs transport shutdown failed'))
        let timer: NodeJS.Timeout | undefined
        // the send batches that only took from the queue run in no job slot: waited for beside the pool's jobs
        const sendsDrained = Promise.all(batchers.map((b) => b.drain({ abortAfterMs: graceAbortMs })))
        const outcome = await Promise.race([
          Promise.all([runner.stop(reason), sendsDrained]).then(
            () => 'stopped' as const,
            (error: unknown) => {
              log.error({ err: error }, 'graceful shutdown failed')
              return 'failed' as const
            },
          ),
          new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), settings.shutdownGraceMs)
          }),
        ])
        clearTimeout(timer)
        if (outcome !== 'stopped') {
          log.error(
            { outcome },
            'jobs still running after the grace period: failing them so they are retried elsewhere',
          )
          await runner
            .kill(`shutdown ${outcome}`)
            .catch((error: unknown) => log.error({ err: error }, 'forceful shutdown failed'))
        }
        await sqsStopped
        await heartbeat.stop()
        await queueMetrics.stop()
        await metricsFlush.stop()
        await faultCounts.stop()
        await markWorkerStopped(db, { id }).catch((error: unknown) =>
          log.error({ err: error }, 'could not mark the worker stopped'),
        )
        await cleanup()
        log.info({ outcome }, 'worker stopped')
      })()
      return stopping
    }
    return { workerId: id, stop }
  } catch (error) {
    await cleanup().catch(() => {})
    throw error
  }
}

/** A job under a task's identifier of the previous release runs as today's task (TASKS_RENAMED). */
function withRenamedTasks(taskList: TaskList): TaskList {
  const out: TaskList = { ...taskList }
  for (const [old, current] of Object.entries(TASKS_RENAMED)) {
    const task = taskList[current]
    if (task) out[old] = task
  }
  return out
}

/** a run of a signer's confirmer, under today's identifier or the previous release's */
function isSignerConfirm(identifier: string): boolean {
  return (TASKS_RENAMED[identifier] ?? identifier) === TASK.signerConfirm
}
