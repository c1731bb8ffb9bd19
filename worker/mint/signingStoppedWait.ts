import type { SendOutcome } from './sendOutcome'

/** how soon an operation held back by the stop switch looks again (it waits: no attempt is spent) */
export const SIGNING_STOPPED_RETRY_MS = 2_000

/** The outcome of an operation the stop switch holds back: it waits, nothing of it lost. */
export function signingStoppedWait(p: { reason: string | null }): SendOutcome {
  return {
    kind: 'wait',
    reason: `signing_stopped: the stop switch is on${p.reason ? ` (${p.reason})` : ''}`,
    retryInMs: SIGNING_STOPPED_RETRY_MS,
  }
}
