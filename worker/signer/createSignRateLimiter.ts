import { sleep } from '@/lib/time/sleep'

export type CreateSignRateLimiterParameters = {
  /** Sign calls per second per KMS key in this process; 0 or undefined: no limit */
  perKey?: number | undefined
  /** Sign calls per second across all keys of this process; 0 or undefined: no limit */
  perProcess?: number | undefined
}

export type SignRateLimiter = {
  /** resolves when this process may send one more Sign with `keyId` (rejects if `signal` aborts first) */
  acquire: (keyId: string, signal?: AbortSignal) => Promise<void>
}

type Bucket = { rate: number; tokens: number; at: number }

/**
 * The worker's own KMS budget (docs/decisions/019-production-faults.md): token buckets, one per key and one for the
 * process, each holding one second's burst and refilled continuously. A caller reserves a
 * token from each (a bucket may go into debt, so waiters are served in arrival order) and
 * waits until both are paid. Kept below the account's quota, it keeps KMS from throttling
 * in the first place; the in-call retries (sendSignWithRetry) handle the rest (other users
 * of the same quota).
 */
export function createSignRateLimiter({ perKey, perProcess }: CreateSignRateLimiterParameters): SignRateLimiter {
  const now = () => performance.now()
  const make = (rate: number): Bucket => ({ rate, tokens: rate, at: now() })
  const shared = perProcess && perProcess > 0 ? make(perProcess) : undefined
  const keys = new Map<string, Bucket>()
  /** takes one token, returns how long until it is actually there (ms) */
  const reserve = (b: Bucket): number => {
    const t = now()
    b.tokens = Math.min(b.rate, b.tokens + ((t - b.at) / 1000) * b.rate)
    b.at = t
    b.tokens -= 1
    return b.tokens >= 0 ? 0 : (-b.tokens / b.rate) * 1000
  }
  return {
    acquire: async (keyId, signal) => {
      let key = keys.get(keyId)
      if (!key && perKey && perKey > 0) {
        key = make(perKey)
        keys.set(keyId, key)
      }
      const waitMs = Math.max(key ? reserve(key) : 0, shared ? reserve(shared) : 0)
      if (waitMs <= 0) return
      await sleep({ ms: waitMs, signal })
    },
  }
}
