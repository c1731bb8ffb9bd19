import { KmsServiceError } from '../../errors/stack'
import type { KmsOperation } from './kmsOperations'

export type SignThrottle = {
  /** Sign calls allowed per second; undefined or 0: no limit */
  rate: () => number | undefined
  setRate: (perSecond: number | undefined) => void
  /**
   * Takes up to n tokens as another caller of the same account would (tests: a
   * neighbour eating the shared quota without costing this process a signature each)
   */
  spend: (n: number) => void
  /** Sign calls answered, and refused with ThrottlingException, since the start */
  counts: { signed: number; throttled: number }
}

/**
 * KMS's request quota, locally (KMS_LOCAL_SIGN_RATE): a token bucket of `rate` tokens
 * refilled continuously, one second's worth of burst, shared by every key (AWS counts the
 * quota per account and region). A Sign above it is answered as AWS does: HTTP 400
 * `{ "__type": "ThrottlingException", "message": "Rate exceeded" }`, which the SDK
 * classifies as a throttling error (retried with its throttling backoff).
 */
export function throttleSign(
  sign: KmsOperation,
  { rate: initial }: { rate: number | undefined },
): { sign: KmsOperation; throttle: SignThrottle } {
  let rate = initial && initial > 0 ? initial : undefined
  let tokens = rate ?? 0
  let refilledAt = performance.now()
  const counts = { signed: 0, throttled: 0 }
  const refill = (perSecond: number) => {
    const now = performance.now()
    tokens = Math.min(perSecond, tokens + ((now - refilledAt) / 1000) * perSecond)
    refilledAt = now
  }
  const take = (): boolean => {
    if (rate === undefined) return true
    refill(rate)
    if (tokens < 1) return false
    tokens -= 1
    return true
  }
  return {
    sign: (body) => {
      if (!take()) {
        counts.throttled++
        throw new KmsServiceError('ThrottlingException', 'Rate exceeded')
      }
      counts.signed++
      return sign(body)
    },
    throttle: {
      rate: () => rate,
      setRate: (perSecond) => {
        rate = perSecond && perSecond > 0 ? perSecond : undefined
        tokens = rate ?? 0
        refilledAt = performance.now()
      },
      spend: (n) => {
        if (rate === undefined) return
        refill(rate)
        tokens = Math.max(0, tokens - n)
      },
      counts,
    },
  }
}
