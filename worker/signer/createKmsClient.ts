import { KMSClient } from '@aws-sdk/client-kms'
import { DEV_KMS_ACCESS_KEY } from '@/lib/config/loadConfig'
import { countFault } from '@/lib/ops/faultCounts'
import { instrumentKmsClient } from '@/worker/telemetry/instrumentKmsClient'

export type CreateKmsClientParameters = {
  region: string
  /**
   * A KMS endpoint other than AWS's own: the local KMS endpoint of the stack and tests
   * (scripts/stack/kmsServer.ts), or a VPC endpoint.
   */
  endpoint?: string | undefined
  /** where AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are read from; process.env by default */
  env?: Record<string, string | undefined>
}

export type CreateKmsClientReturnType = KMSClient

/**
 * The SDK's retries, for every KMS call: standard mode (exponential backoff with jitter,
 * 500 ms base for throttles), 2 attempts. Not adaptive mode: its client-side rate limiter
 * is shared by every key of the client and sleeps inside send() without a bound, so under
 * a throttling storm signatures queued there for longer than the signing timeout. The
 * worker's own budget (worker/signer/createSignRateLimiter) limits the rate, and a Sign
 * still throttled is retried by its own loop within a time budget
 * (worker/signer/sendSignWithRetry.ts).
 */
const RETRY = { retryMode: 'standard', maxAttempts: 2 } as const

/**
 * The one way to build a KMS client. Without an endpoint it is AWS KMS with the SDK's
 * default credential chain (task role in ECS). With an endpoint, static credentials come
 * from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; only for an endpoint on loopback do they
 * default to the dev pair `mintdesk-local` / `mintdesk-local` (production refuses those,
 * see lib/config/loadConfig.ts).
 */
export function createKmsClient(p: CreateKmsClientParameters): CreateKmsClientReturnType {
  // spans, counts and Sign time of every KMS request
  return instrumentKmsClient(buildKmsClient(p))
}

function buildKmsClient({ region, endpoint, env = process.env }: CreateKmsClientParameters): KMSClient {
  if (!endpoint) return countingThrottles(new KMSClient({ region, ...RETRY }))

  const local = isLoopbackUrl(endpoint)
  const accessKeyId = env.AWS_ACCESS_KEY_ID ?? (local ? DEV_KMS_ACCESS_KEY : undefined)
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY ?? (local ? DEV_KMS_ACCESS_KEY : undefined)
  if (accessKeyId && secretAccessKey) {
    return countingThrottles(
      new KMSClient({
        region,
        endpoint,
        credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN },
        ...RETRY,
      }),
    )
  }
  return countingThrottles(new KMSClient({ region, endpoint, ...RETRY }))
}

/**
 * Counts each throttled answer (lib/ops/faultCounts 'kms_throttled'): the middleware sits
 * inside the SDK's retry loop, so it sees every attempt, not only the last.
 */
function countingThrottles(client: KMSClient): KMSClient {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args)
      } catch (error) {
        if (
          error instanceof Error &&
          (error.name === 'ThrottlingException' ||
            (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 429)
        ) {
          countFault('kms_throttled')
        }
        throw error
      }
    },
    { step: 'finalizeRequest', priority: 'low', name: 'mintdeskCountThrottles' },
  )
  return client
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}
