import { symbols } from 'pino'
import type { WorkerLogger } from './logger'

/**
 * The named points where a crash test can kill the worker (MINTDESK_FAILPOINTS):
 * after_reserve (a send batch's nonces reserved and bound, nothing signed stored),
 * after_sign (signed transactions stored, not broadcast), after_broadcast (broadcast,
 * orders not yet marked submitted).
 */
export type FailpointName = 'after_reserve' | 'after_sign' | 'after_broadcast'

export type Failpoint = (name: FailpointName) => void

export type CreateFailpointParameters = {
  /** the enabled names; loadConfig leaves this empty in production mode */
  names: readonly string[]
  log: WorkerLogger
}

/**
 * Crash-test hooks: at an enabled point the process SIGKILLs itself (no cleanup, no
 * 'finally', exactly like a node losing power), so the tests can prove that a job
 * killed between reserving nonces and storing signatures, between signing and
 * broadcast, or between broadcast and the status update, is taken
 * over and still mints exactly once. A no-op unless enabled.
 */
export function createFailpoint({ names, log }: CreateFailpointParameters): Failpoint {
  const enabled = new Set(names)
  if (enabled.size === 0) return () => {}
  log.warn({ failpoints: [...enabled] }, 'failpoints enabled: this worker will kill itself on purpose')
  return (name) => {
    if (!enabled.has(name)) return
    log.fatal({ failpoint: name }, `failpoint ${name}: SIGKILL`)
    flushLogSync(log)
    process.kill(process.pid, 'SIGKILL')
  }
}

/**
 * pino writes stdout asynchronously (sonic-boom) and `flush()` is asynchronous too: a
 * SIGKILL right after it would lose the failpoint's own line, which the crash tests look
 * for. The worker's logger is synchronous when failpoints are enabled (main.ts), so its
 * line is written already; for any other logger, the stream's flushSync writes what is
 * still queued (not a line whose asynchronous write has begun: hence the sync logger).
 */
function flushLogSync(log: WorkerLogger): void {
  const stream = (log as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[symbols.streamSym]
  try {
    stream?.flushSync?.()
  } catch {
    // a stream that cannot flush now (not ready, destroyed): the crash goes on regardless
  }
}
