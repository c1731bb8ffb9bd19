import { isUuid } from '@/lib/mint/isUuid'
import { ValidationError } from '@/lib/web/errors/request'

export type JobQuery =
  /** digits; exactly 8 of them may also be the start of an order id as the tables show it (`orderIdPrefix`) */
  | { kind: 'jobId'; jobId: bigint; orderIdPrefix?: { from: string; to: string } }
  | { kind: 'orderId'; orderId: string }
  | { kind: 'recipient'; address: string }
  | { kind: 'txHash'; hash: string }
  /** the start of an order id, as the tables show it (its first 8 characters, or more) */
  | { kind: 'orderIdPrefix'; from: string; to: string }
  /** the start of a recipient address or a transaction hash (`0x7099`) */
  | { kind: 'hexPrefix'; prefix: string }
  | { kind: 'text'; text: string }

export type ClassifyJobQueryReturnType = JobQuery | null

/** Free text shorter than this would match nearly everything and cannot use the trigram index. */
export const MIN_TEXT_QUERY_LENGTH = 3
export const MAX_QUERY_LENGTH = 200

/**
 * What the jobs list's free text `q` names, decided by its shape: a job id (digits),
 * an order id (UUID) or its start (8 hex digits or more, as the tables show it), a
 * recipient (20-byte hex address), a transaction hash (32-byte hex), the start of either
 * (`0x` and hex digits), else text searched in the errors. Addresses and hashes are
 * compared lower-cased. Empty -> null (no filter). Too short a text -> 422.
 */
export function classifyJobQuery(raw: string | undefined | null): ClassifyJobQueryReturnType {
  const q = (raw ?? '').trim()
  if (q === '') return null
  if (q.length > MAX_QUERY_LENGTH) {
    throw new ValidationError([{ path: 'q', message: `at most ${MAX_QUERY_LENGTH} characters` }])
  }
  if (/^#?\d{1,18}$/.test(q)) {
    const jobId = BigInt(q.replace('#', ''))
    if (!/^\d{8}$/.test(q)) return { kind: 'jobId', jobId }
    const range = orderIdRange(q)
    return range.kind === 'orderIdPrefix' ? { kind: 'jobId', jobId, orderIdPrefix: range } : { kind: 'jobId', jobId }
  }
  if (isUuid(q)) return { kind: 'orderId', orderId: q.toLowerCase() }
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return { kind: 'recipient', address: q.toLowerCase() }
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) return { kind: 'txHash', hash: q.toLowerCase() }
  if (/^0x[0-9a-fA-F]{1,63}$/.test(q)) return { kind: 'hexPrefix', prefix: q.toLowerCase() }
  const uuidStart = /^[0-9a-f]{8}(?:-[0-9a-f]{0,4}){0,3}(?:-[0-9a-f]{0,12})?$/i.exec(q)
  if (uuidStart) return orderIdRange(q.toLowerCase().replaceAll('-', ''))
  if (q.length < MIN_TEXT_QUERY_LENGTH) {
    throw new ValidationError([
      { path: 'q', message: `search text must be at least ${MIN_TEXT_QUERY_LENGTH} characters (or a job id)` },
    ])
  }
  return { kind: 'text', text: q }
}

/** The order ids that start with these hex digits: from the lowest such uuid to the highest (the key's index). */
function orderIdRange(hex: string): JobQuery {
  const asUuid = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
  return {
    kind: 'orderIdPrefix',
    from: asUuid(hex.padEnd(32, '0')),
    to: asUuid(hex.padEnd(32, 'f')),
  }
}
