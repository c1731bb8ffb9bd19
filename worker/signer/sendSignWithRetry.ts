import { type KMSClient, SignCommand, type SignCommandInput, type SignCommandOutput } from '@aws-sdk/client-kms'
import { countFault } from '@/lib/ops/faultCounts'
import { sleep } from '@/lib/time/sleep'
import { KmsThrottledError } from '@/worker/errors/faults'
import type { SignRateLimiter } from './createSignRateLimiter'
import { isKmsThrottling } from './isKmsThrottling'

/** How this process signs with KMS under its quota (startWorker builds one from the config). */
export type KmsSignPolicy = {
  limiter: SignRateLimiter
  /** how long one Sign may keep retrying throttles before it gives up with KmsThrottledError */
  throttleBudgetMs: number
  /** first backoff after a throttle the SDK gave up on; doubled each time, full jitter */
  baseDelayMs?: number
  maxDelayMs?: number
}

/**
 * One KMS Sign within the process's budget: wait for the rate limiter, send (the SDK
 * retries a throttle once itself: worker/signer/createKmsClient.ts), and if KMS still
 * throttles, back off with full jitter (random 0..min(max, base * 2^n)) and try again,
 * for up to `throttleBudgetMs`. Past that, KmsThrottledError: nothing was signed, the
 * caller tries the order again later without counting a failure. Any other error passes
 * through unchanged.
 */
export async function sendSignWithRetry(
  client: KMSClient,
  input: SignCommandInput,
  policy: KmsSignPolicy,
): Promise<SignCommandOutput> {
  const keyId = input.KeyId ?? '(no key id)'
  const base = policy.baseDelayMs ?? 200
  const cap = policy.maxDelayMs ?? 4_000
  const started = performance.now()
  for (let retry = 0; ; retry++) {
    await policy.limiter.acquire(keyId)
    try {
      return await client.send(new SignCommand(input))
    } catch (error) {
      if (!isKmsThrottling(error)) throw error
      const ceiling = Math.min(cap, base * 2 ** Math.min(retry, 16))
      const delay = Math.round(Math.random() * ceiling)
      if (performance.now() - started + delay > policy.throttleBudgetMs) {
        throw new KmsThrottledError(keyId, Math.max(ceiling, 1_000), retry + 1, { cause: error })
      }
      countFault('kms_sign_retry')
      await sleep({ ms: delay })
    }
  }
}
