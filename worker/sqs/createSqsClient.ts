import { SQSClient } from '@aws-sdk/client-sqs'
import { DEV_KMS_ACCESS_KEY } from '@/lib/config/loadConfig'

export type CreateSqsClientParameters = {
  region: string
  /** the local stack's embedded endpoint (scripts/stack/sqs.ts); unset: AWS's regional endpoint */
  endpoint?: string | undefined
  /** where AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are read from; process.env by default */
  env?: Record<string, string | undefined>
}

/**
 * The one way to build an SQS client. Without an endpoint: AWS SQS with the
 * SDK's default credential chain (the worker's task role in ECS). With an endpoint (the
 * embedded one): static credentials from the environment, the local stack's dev pair by
 * default; the endpoint checks none.
 */
export function createSqsClient({ region, endpoint, env = process.env }: CreateSqsClientParameters): SQSClient {
  if (!endpoint) return new SQSClient({ region })
  return new SQSClient({
    region,
    endpoint,
    credentials: {
      accessKeyId: env.AWS_ACCESS_KEY_ID ?? DEV_KMS_ACCESS_KEY,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? DEV_KMS_ACCESS_KEY,
    },
  })
}
