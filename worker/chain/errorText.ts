/**
 * All the text of an error and its causes (viem nests the node's own message in
 * `details` of an inner error), lower-cased, for matching a node's answer.
 */
export function errorText(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; current && depth < 10; depth++) {
    if (current instanceof Error) {
      parts.push(current.name, current.message)
      // viem's errors add `details` and `shortMessage`; read as unknown, checked below
      const withDetails = current as Error & { details?: unknown; shortMessage?: unknown }
      if (typeof withDetails.details === 'string') parts.push(withDetails.details)
      if (typeof withDetails.shortMessage === 'string') parts.push(withDetails.shortMessage)
      current = current.cause
    } else {
      parts.push(String(current))
      break
    }
  }
  return parts.join(' | ').toLowerCase()
}
