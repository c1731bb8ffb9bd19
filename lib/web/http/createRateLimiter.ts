export type CreateRateLimiterParameters = {
  /** requests one client may make at once: the bucket's size */
  burst: number
  /** requests per second a client gets back, continuously (the sustained rate) */
  perSecond: number
  /**
   * clients remembered at most; the least recently seen is forgotten first (it starts
   * again with a full bucket). Bounds the memory whatever the number of addresses.
   */
  maxClients?: number
  /** milliseconds, monotonic; tests pass their own clock */
  now?: () => number
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterMs: number }

export type RateLimiter = {
  /** takes one request from `client`'s bucket, or says how long until there is one */
  take: (client: string) => RateLimitVerdict
  /** forgets every client */
  reset: () => void
}

type Bucket = { tokens: number; at: number }

/**
 * A token bucket per client, in this process's memory: `burst` requests at once, then
 * `perSecond`. A refused request takes nothing, so a client that keeps hammering is let
 * in again as soon as a token is back (`retryAfterMs`).
 *
 * ```ts
 * const limiter = createRateLimiter({ burst: 60, perSecond: 1 })
 * const verdict = limiter.take(getClientIp(req) ?? 'unknown')
 * if (!verdict.allowed) throw new RateLimitedError({ retryAfterSeconds: verdict.retryAfterMs / 1000 })
 * ```
 *
 * Per process, like the login throttle: N web tasks let a client N times the rate.
 */
export function createRateLimiter({
  burst,
  perSecond,
  maxClients = 10_000,
  now = () => performance.now(),
}: CreateRateLimiterParameters): RateLimiter {
  if (!(burst >= 1) || !(perSecond > 0)) throw new RangeError('a rate limit needs burst >= 1 and perSecond > 0')
  const buckets = new Map<string, Bucket>()

  return {
    take(client) {
      const at = now()
      const known = buckets.get(client)
      const bucket: Bucket = known
        ? { tokens: Math.min(burst, known.tokens + ((at - known.at) / 1000) * perSecond), at }
        : { tokens: burst, at }
      // re-inserted: the Map's order is the order clients were last seen in
      buckets.delete(client)
      buckets.set(client, bucket)
      while (buckets.size > maxClients) {
        const oldest = buckets.keys().next()
        if (oldest.done) break
        buckets.delete(oldest.value)
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return { allowed: true }
      }
      return { allowed: false, retryAfterMs: ((1 - bucket.tokens) / perSecond) * 1000 }
    },
    reset() {
      buckets.clear()
    },
  }
}
