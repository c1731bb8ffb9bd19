export type StartPoolPollParameters = {
  /** wakes one idle job slot, which looks for a due job (startWorker's wakeAt(now): nothing once the pool stops) */
  wakeOne: () => void
  /** WORKER_POLL_MS */
  everyMs: number
}

/** The slots' own poll while the pool polls as one: a fallback only, at most once a minute per slot. */
export const SLOT_POLL_FALLBACK_MS = 60_000

/**
 * The graphile-worker pool's polling as ONE poller (QUEUE_TRANSPORT=sqs,
 * docs/decisions/073-sqs-groups-and-pool-poll.md): every `everyMs` one idle slot is woken to look for a due job,
 * instead of every idle slot looking on its own timer (WORKER_CONCURRENCY fetches per WORKER_POLL_MS while the slots
 * sit idle). A slot that finds a job looks again when it ends, as always, and a new job's notification wakes a slot
 * at once; only a job due later (a retry's backoff, a deferred send, another process's follow-up) waits for this
 * poll, on average half a period.
 */
export function startPoolPoll({ wakeOne, everyMs }: StartPoolPollParameters): { stop: () => void } {
  const timer = setInterval(wakeOne, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
