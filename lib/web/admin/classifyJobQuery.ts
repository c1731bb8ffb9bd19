import { isUuid } from '@/lib/mint/isUuid'
import { ValidationError } from '@/lib/web/errors/request'

export type JobQuery =
  | { kind: 'jobId'; jobId: bigint }
  | { kind: 'orderId'; orderId: string }
  | { kind: 'recipient'; address: string }
  | { kind: 'txHash'; hash: string }
  | { kind: 'text'; text: string }

export type ClassifyJobQueryReturnType = JobQuery | null

/** Free text shorter than this would match nearly everything and cannot use the trigram index. */
export const MIN_TEXT_QUERY_LENGTH = 3
export const MAX_QUERY_LENGTH = 200

/**
 * What the jobs list's free text `q` names, decided by its shape: a job id (digits),
 * an order id (UUID), a recipient (20-byte hex address), a transaction hash (32-byte
 * hex), else text searched in the errors. Addresses and hashes are compared
 * lower-cased. Empty -> null (no filter). Too short a text -> 422.
 */
export function classifyJobQuery(raw: string | undefined | null): ClassifyJobQueryReturnType {
  const q = (raw ?? '').trim()
  if (q === '') return null
  if (q.length > MAX_QUERY_LENGTH) {
    throw new ValidationError([{ path: 'q', message: `at most ${MAX_QUERY_LENGTH} characters` }])
  }
  if (/^#?\d{1,18}$/.test(q)) return { kind: 'jobId', jobId: BigInt(q.replace('#', '')) }
  if (isUuid(q)) return { kind: 'orderId', orderId: q.toLowerCase() }
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return { kind: 'recipient', address: q.toLowerCase() }
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) return { kind: 'txHash', hash: q.toLowerCase() }
  if (q.length < MIN_TEXT_QUERY_LENGTH) {
    throw new ValidationError([
      { path: 'q', message: `search text must be at least ${MIN_TEXT_QUERY_LENGTH} characters (or a job id)` },
    ])
  }
  return { kind: 'text', text: q }
}
