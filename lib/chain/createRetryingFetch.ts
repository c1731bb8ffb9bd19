import { countFault } from '@/lib/ops/faultCounts'
import { sleep } from '@/lib/time/sleep'

export type CreateRetryingFetchParameters = {
  /** retries after the first try (0: none) */
  retries?: number
  /** first backoff; doubled each retry, full jitter (random 0..min(max, base * 2^n)) */
  baseDelayMs?: number
  maxDelayMs?: number
  /** a provider's Retry-After longer than this is cut to it (the request's timeout bounds it anyway) */
  maxRetryAfterMs?: number
}

/** the answers that mean "not now": rate limited, or the provider's edge failing */
const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504])

/** Retry-After in seconds or as an HTTP date, in ms; undefined when absent or unreadable */
export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

/**
 * The chain client's fetch: an RPC provider's transient answers are tried
 * again here, within the request's own timeout (viem's abort signal ends the loop): a 429
 * after its Retry-After (plus a little jitter, so callers do not return in step), a 5xx or
 * a dropped connection after an exponential backoff with full jitter. JSON-RPC requests are
 * safe to send twice: reads are reads, and a re-sent eth_sendRawTransaction is answered
 * "already known" or "nonce too low", which worker/chain/broadcastRawTx.ts takes as sent.
 * Each retry is counted ('rpc_retry', and 'rpc_rate_limited' for a 429).
 */
export function createRetryingFetch({
  retries = 6,
  baseDelayMs = 100,
  maxDelayMs = 3_000,
  maxRetryAfterMs = 5_000,
}: CreateRetryingFetchParameters = {}): typeof fetch {
  return async (input, init) => {
    for (let retry = 0; ; retry++) {
      let res: Response | undefined
      let failure: unknown
      try {
        res = await fetch(input, init)
      } catch (error) {
        // viem's timeout (or the caller) aborted: not ours to retry
        if (init?.signal?.aborted) throw error
        failure = error
      }
      if (res && !RETRY_STATUS.has(res.status)) return res
      if (retry >= retries) {
        if (res) return res
        throw failure
      }
      const hinted = res?.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : undefined
      if (res?.status === 429) countFault('rpc_rate_limited')
      await res?.body?.cancel().catch(() => undefined)
      const delay =
        hinted !== undefined
          ? Math.min(hinted, maxRetryAfterMs) + Math.random() * baseDelayMs
          : Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** retry)
      countFault('rpc_retry')
      await sleep({ ms: delay, signal: init?.signal })
    }
  }
}
