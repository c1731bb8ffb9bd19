import { sleep } from '@/lib/time/sleep'
import type { WorkerContext } from '../runtime/context'

export type WaitForNextHeadParameters = {
  /** the head block the last pass saw */
  after: bigint
  /** wait at most this long (CONFIRM_POLL_MS): a pass also runs on time alone (stuck transactions, resends) */
  maxMs: number
  signal: AbortSignal
}

/**
 * Between two passes of a signer's confirmer: returns as soon as the chain's head is past
 * `after` (eth_blockNumber every RPC polling interval, ~100 ms on anvil), after `maxMs`,
 * on an RPC error (the next pass meets it and fails as a job does) or when the worker
 * shuts down. So a pass follows each block by at most one polling interval, however
 * graphile-worker polls for scheduled jobs.
 */
export async function waitForNextHead(
  ctx: Pick<WorkerContext, 'chain'>,
  { after, maxMs, signal }: WaitForNextHeadParameters,
): Promise<void> {
  const until = Date.now() + maxMs
  const every = Math.max(20, Math.min(ctx.chain.pollingInterval, maxMs))
  while (!signal.aborted) {
    const left = until - Date.now()
    if (left <= 0) return
    // the worker shutting down ends the wait: the run then hands over
    if (
      !(await sleep({ ms: Math.min(every, left), signal }).then(
        () => true,
        () => false,
      ))
    )
      return
    try {
      if ((await ctx.chain.getBlockNumber({ cacheTime: 0 })) > after) return
    } catch {
      return
    }
  }
}
