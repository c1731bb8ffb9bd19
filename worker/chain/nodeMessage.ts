/**
 * The node's own words in a viem error: the first `details` string down the cause chain
 * (viem keeps the JSON-RPC error message there, e.g. "insufficient funds for gas * price
 * + value"), or undefined. For error messages people read: the job's failure reason is
 * the first line of its message, and viem's own first line ("transaction creation
 * failed.") says nothing about why.
 */
export function nodeMessage(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    const details = (current as Error & { details?: unknown }).details
    if (typeof details === 'string' && details.trim() !== '') return details.trim().split('\n')[0]
    current = current.cause
  }
  return undefined
}
