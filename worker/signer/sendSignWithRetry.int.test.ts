import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CreateKeyCommand, type KMSClient } from '@aws-sdk/client-kms'
import type { Hex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { takeFaultCounts } from '@/lib/ops/faultCounts'
import { type StartKmsServerReturnType, startKmsServer } from '@/scripts/stack/kmsServer'
import { KmsThrottledError } from '@/worker/errors/faults'
import { createKmsClient } from '@/worker/signer/createKmsClient'
import { getKmsPublicKeyOrThrow } from '@/worker/signer/getKmsPublicKeyOrThrow'
import { createSignRateLimiter } from './createSignRateLimiter'
import { signDigestWithKms } from './signDigestWithKms'

// The local KMS endpoint throttles like KMS at its quota (KMS_LOCAL_SIGN_RATE), and
// the worker's signing waits for its own budget and retries throttles within a time budget.
describe('KMS Sign under a quota (the local endpoint throttling)', () => {
  let dir: string
  let server: StartKmsServerReturnType
  let kms: KMSClient
  let keyId: string
  let publicKey: Hex
  const digest = (i: number) => `0x${i.toString(16).padStart(64, '0')}` as const

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mintdesk-throttle-'))
    server = await startKmsServer({ dataDir: dir, signRate: 10 })
    kms = createKmsClient({ region: 'us-east-1', endpoint: server.url, env: {} })
    keyId =
      (await kms.send(new CreateKeyCommand({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' }))).KeyMetadata
        ?.KeyId ?? ''
    publicKey = await getKmsPublicKeyOrThrow(kms, { keyId })
  })
  afterAll(async () => {
    kms.destroy()
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(() => {
    server.signThrottle.setRate(10) // a full bucket again
    server.signThrottle.counts.signed = 0
    server.signThrottle.counts.throttled = 0
    takeFaultCounts()
  })

  it('answers ThrottlingException above the rate, which the SDK names as such', async () => {
    const plain = createKmsClient({ region: 'us-east-1', endpoint: server.url, env: {} })
    // an empty bucket refilled at 1 per second: most of 6 calls at once are refused
    server.signThrottle.setRate(1)
    server.signThrottle.spend(1)
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => signDigestWithKms(plain, { keyId, digest: digest(i), publicKey })),
    )
    plain.destroy()
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason as Error)
    expect(server.signThrottle.counts.throttled).toBeGreaterThan(0)
    // without our loop, some still fail after the SDK's 3 attempts, as ThrottlingException
    for (const e of refused) expect(e.name).toBe('ThrottlingException')
    expect(takeFaultCounts().kms_throttled).toBe(server.signThrottle.counts.throttled)
  })

  it('with the policy, 20 concurrent signatures all succeed: throttles seen and retried', async () => {
    server.signThrottle.setRate(5)
    server.signThrottle.spend(5) // another caller just took the quota
    const policy = { limiter: createSignRateLimiter({}), throttleBudgetMs: 30_000 }
    const sigs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signDigestWithKms(kms, { keyId, digest: digest(i), publicKey, policy })),
    )
    expect(sigs).toHaveLength(20)
    expect(server.signThrottle.counts.signed).toBe(20)
    expect(server.signThrottle.counts.throttled).toBeGreaterThan(0)
    const counts = takeFaultCounts()
    expect(counts.kms_throttled).toBe(server.signThrottle.counts.throttled)
  })

  it('a budget below the quota: no throttle at all', async () => {
    const policy = { limiter: createSignRateLimiter({ perKey: 5, perProcess: 100 }), throttleBudgetMs: 30_000 }
    await Promise.all(
      Array.from({ length: 15 }, (_, i) => signDigestWithKms(kms, { keyId, digest: digest(i), publicKey, policy })),
    )
    expect(server.signThrottle.counts).toEqual({ signed: 15, throttled: 0 })
  })

  it('still throttled after the time budget: KmsThrottledError (transient), nothing signed', async () => {
    server.signThrottle.setRate(0.001) // the bucket is empty at once and fills in 1000 s
    server.signThrottle.counts.signed = 0
    const policy = { limiter: createSignRateLimiter({}), throttleBudgetMs: 0 }
    // the first Sign takes the single token; the next ones are throttled
    await signDigestWithKms(kms, { keyId, digest: digest(1), publicKey, policy }).catch(() => undefined)
    const error = await signDigestWithKms(kms, { keyId, digest: digest(2), publicKey, policy }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(KmsThrottledError)
    expect((error as KmsThrottledError).retryAfterMs).toBeGreaterThan(0)
    expect(server.signThrottle.counts.signed).toBeLessThanOrEqual(1)
  }, 30_000)
})
