import type { KMSClient } from '@aws-sdk/client-kms'
import { SpanKind } from '@opentelemetry/api'
import { METRIC } from '@/lib/ops/metricFamilies'
import { incrementCounter, observeHistogram } from '@/lib/telemetry/metricRegistry'
import { withSpan } from '@/lib/telemetry/withSpan'

/**
 * Adds one middleware to a KMS client, inside the SDK's retry loop (finalizeRequest, low
 * priority), so each HTTP attempt is seen: a span `kms.<Operation>` (kms.Sign in a mint's
 * trace), the count per operation and outcome (ok, throttled, error) and, for Sign, its
 * duration, into this process's registry (flushed to metric_series). The key id goes on
 * the span, never the message or the signature.
 */
export function instrumentKmsClient(client: KMSClient): KMSClient {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '')
      const input: unknown = args.input
      const keyId =
        typeof input === 'object' && input !== null && 'KeyId' in input && typeof input.KeyId === 'string'
          ? input.KeyId
          : undefined
      const started = performance.now()
      let outcome = 'ok'
      try {
        return await withSpan(
          `kms.${operation}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'rpc.system': 'aws-api',
              'rpc.service': 'KMS',
              'rpc.method': operation,
              ...(keyId ? { 'aws.kms.key_id': keyId } : {}),
            },
          },
          () => next(args),
        )
      } catch (error) {
        outcome = isThrottle(error) ? 'throttled' : 'error'
        throw error
      } finally {
        incrementCounter(METRIC.kmsRequestsTotal.name, { operation, outcome })
        if (operation === 'Sign')
          observeHistogram(
            METRIC.kmsSignSeconds.name,
            METRIC.kmsSignSeconds.buckets,
            (performance.now() - started) / 1000,
          )
      }
    },
    { step: 'finalizeRequest', priority: 'low', name: 'mintdeskTelemetry', override: true },
  )
  return client
}

function isThrottle(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const name = 'name' in error ? String(error.name) : ''
  return /Throttl|TooManyRequests|LimitExceeded/.test(name)
}
