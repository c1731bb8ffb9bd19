/**
 * Whether an AWS SDK error is KMS saying "too many requests": the ThrottlingException KMS
 * answers at its quota (HTTP 400, `__type` in the JSON protocol), an HTTP 429, or any error
 * the SDK itself marks as throttling. The same rule as the SDK's retry classification,
 * without importing its internals.
 */
export function isKmsThrottling(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const e = error as Error & { $metadata?: { httpStatusCode?: number }; $retryable?: { throttling?: boolean } }
  return (
    e.name === 'ThrottlingException' ||
    e.name === 'Throttling' ||
    e.name === 'TooManyRequestsException' ||
    e.$metadata?.httpStatusCode === 429 ||
    e.$retryable?.throttling === true
  )
}
