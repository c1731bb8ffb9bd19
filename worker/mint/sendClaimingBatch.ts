import { WorkerError } from '@/lib/errors/jobs'
import { claimQueuedJobs } from '@/lib/jobs/claimQueuedJobs'
import { deferQueuedJobs } from '@/lib/jobs/deferQueuedJobs'
import { sleep } from '@/lib/time/sleep'
import type { OperationRow } from '../operations/OperationKind'
import type { SendQueue } from '../operations/SendQueue'
import type { WorkerContext } from '../runtime/context'
import type { GateOpened } from './createSendBatcher'
import { finishClaimedSends } from './finishClaimedSends'
import { readSignerRoom } from './readSignerRoom'
import { sendOperations } from './sendOperations'
import type { SendOrder, SendOutcome } from './sendOutcome'

export type SendClaimingBatchParameters<Row extends OperationRow, P extends Record<string, unknown>> = {
  /** the kind's send task: what is claimed from the queue and how its payloads name operations */
  queue: SendQueue<Row, P>
  /**
   * the operations of the kind's send jobs this process is running (graphile-worker's slots), gathered by the
   * batcher; none when the batch only takes from the queue
   */
  orders: readonly SendOrder[]
  signal: AbortSignal
  /**
   * the batcher's gate: called once the batch is past its reserve
   * transaction, with `more` when its claim came back full
   */
  opened: GateOpened
}

/**
 * One send batch of one kind's graphile-worker face (gathered by the process's batcher of the kind,
 * createSendBatcher): the operations of the kind's jobs this process runs (none for a batch that only takes from the
 * queue), plus up to MINT_SEND_BATCH of them in all taken from the queue (claimQueuedJobs of the kind's send task:
 * SKIP LOCKED, locked by this worker like every job it holds, so a crash hands them back after the stale-worker
 * unlock), no more than the roomiest signer may still send (MAX_IN_FLIGHT_PER_SIGNER; with no room at all the
 * task's queue waits as a whole and every operation here gets `wait`). Every operation goes through sendOperations
 * with the kind; each claimed job ends here with its own outcome and trail (finishClaimedSends), before a running
 * job learns its own.
 */
export async function sendClaimingBatch<Row extends OperationRow, P extends Record<string, unknown>>(
  ctx: WorkerContext,
  { queue, orders, signal, opened }: SendClaimingBatchParameters<Row, P>,
): Promise<Map<string, SendOutcome>> {
  const task = queue.kind.sendTask
  const actor = ctx.workerId()
  const room = await readSignerRoom(ctx)
  if (room <= 0) {
    const moved = await deferQueuedJobs(ctx.db, { task, delayMs: ctx.settings.inFlightRetryMs })
    ctx.log.info(
      { moved, retryInMs: ctx.settings.inFlightRetryMs },
      'every signer at its in-flight bound: the send queue waits',
    )
    const reason = 'every signer at MAX_IN_FLIGHT_PER_SIGNER'
    return new Map(orders.map((o) => [o.orderId, { kind: 'wait', reason, retryInMs: ctx.settings.inFlightRetryMs }]))
  }
  const startedAt = performance.now()
  const limit = Math.min(ctx.settings.sendBatch, room) - orders.length
  const claims = await claimQueuedJobs(ctx.db, { task, workerId: actor, limit })
  const more = limit > 0 && claims.length === limit
  // a payload the task's schema refuses (queued by older code) is that job's permanent failure, in finishClaimedSends
  const claimed = claims.map((c) => {
    const parsed = queue.payload.safeParse(c.payload)
    return { ...c, orderId: parsed.success ? queue.idOf(parsed.data) : null }
  })
  const all: SendOrder[] = [
    ...orders,
    ...claimed.flatMap((c) =>
      c.orderId === null ? [] : [{ orderId: c.orderId, jobId: c.jobId, attempt: c.attempts }],
    ),
  ]
  if (all.length === 0) {
    opened()
    return new Map()
  }
  if (all.length > 1)
    ctx.log.info({ task, batch: all.length, running: orders.length, claimed: claimed.length }, 'send batch gathered')

  let outcomes: Map<string, SendOutcome>
  try {
    outcomes = await sendOperations(ctx, {
      kind: queue.kind,
      orders: all,
      actor,
      signal,
      onReserved: () => opened({ more }),
    })
  } catch (error) {
    outcomes = new Map(all.map((o) => [o.orderId, { kind: 'failed' as const, error }]))
  }
  await finishWithRetries(ctx, () =>
    finishClaimedSends(ctx, { task, claimed, outcomes, workerId: actor, durationMs: performance.now() - startedAt }),
  )
  for (const c of claimed) {
    ctx.log.info(
      {
        jobId: c.jobId.toString(),
        orderId: c.orderId,
        task,
        outcome: c.orderId === null ? 'failed' : outcomes.get(c.orderId)?.kind,
      },
      'claimed job finished',
    )
  }
  return outcomes
}

/**
 * The claimed jobs must end before the running ones do: while this worker lives, nobody
 * else unlocks them. A database that stays unreachable is retried for a while; after that
 * the worker exits (as a fenced one does), so the stale-worker sweep hands them back.
 */
async function finishWithRetries(ctx: WorkerContext, finish: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await finish()
      return
    } catch (error) {
      if (attempt >= 8) {
        ctx.log.fatal(
          { err: error },
          'could not end the jobs claimed by a send batch: exiting so that they are handed back',
        )
        const fatal = new WorkerError('could not end the jobs claimed by a send batch', { cause: error })
        ctx.fatal(fatal)
        throw fatal
      }
      ctx.log.warn({ err: error, attempt }, 'could not end the claimed jobs of a send batch yet')
      await sleep({ ms: Math.min(250 * 2 ** attempt, 5_000) })
    }
  }
}
