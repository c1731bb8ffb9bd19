import { KMSClient } from '@aws-sdk/client-kms'
import { DEV_KMS_ACCESS_KEY } from '@/lib/config/loadConfig'

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
 * The one way to build a KMS client. Without an endpoint it is AWS KMS with the SDK's
 * default credential chain (task role in ECS). With an endpoint, static credentials come
 * from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; only for an endpoint on loopback do they
 * default to the dev pair `mintdesk-local` / `mintdesk-local` (production refuses those,
 * see lib/config/loadConfig.ts).
 */
export function createKmsClient({ region, endpoint, env = process.env }: CreateKmsClientParameters): CreateKmsClientReturnType {
  if (!endpoint) return new KMSClient({ region })

  const local = isLoopbackUrl(endpoint)
  const accessKeyId = env.AWS_ACCESS_KEY_ID ?? (local ? DEV_KMS_ACCESS_KEY : undefined)
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY ?? (local ? DEV_KMS_ACCESS_KEY : undefined)
  if (accessKeyId && secretAccessKey) {
    return new KMSClient({
      region,
      endpoint,
      credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN },
    })
  }
  return new KMSClient({ region, endpoint })
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}
