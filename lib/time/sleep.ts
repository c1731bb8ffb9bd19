export type SleepParameters = {
  ms: number
  /** stops the wait early: the promise then rejects with the signal's reason (an Error) */
  signal?: AbortSignal | null | undefined
}

/**
 * Waits `ms`, or rejects as soon as `signal` aborts (already aborted: at once), with the
 * signal's reason when it is an Error, else an Error('aborted'). The one abortable wait of
 * web and worker: the retrying RPC fetch's backoff, the KMS rate limiter, the confirmer's
 * wait for the next block.
 */
export function sleep({ ms, signal }: SleepParameters): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const reason = () => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
    if (signal?.aborted) return reject(reason())
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    function aborted() {
      clearTimeout(timer)
      reject(reason())
    }
    signal?.addEventListener('abort', aborted, { once: true })
  })
}
