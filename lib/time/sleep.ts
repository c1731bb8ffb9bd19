export type SleepParameters = {
  ms: number
  /** stops the wait early: the promise then rejects with the signal's reason (an Error) */
  signal?: AbortSignal | null | undefined
  /** a wait that does not keep the process alive by itself (Node's timer.unref()) */
  unref?: boolean | undefined
}

/**
 * Waits `ms`, or rejects as soon as `signal` aborts (already aborted: at once), with the
 * signal's reason when it is an Error, else an Error('aborted'). Every wait of web, worker
 * and the local stack goes through it.
 *
 * @example
 * await sleep({ ms: 1_000, signal: job.signal })
 */
export function sleep({ ms, signal, unref = false }: SleepParameters): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const reason = () => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
    if (signal?.aborted) return reject(reason())
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    if (unref) timer.unref()
    function aborted() {
      clearTimeout(timer)
      reject(reason())
    }
    signal?.addEventListener('abort', aborted, { once: true })
  })
}
