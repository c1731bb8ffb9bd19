import { createHash } from 'node:crypto'
import type { MintRequest } from '@/lib/mint/mintRequestSchema'

/**
 * SHA-256 (hex) of the canonical JSON of a validated request: object keys sorted at
 * every level, arrays in order, no whitespace. Tells an idempotent replay (same hash)
 * from a conflicting reuse of the same Idempotency-Key (different hash). The request
 * is hashed AFTER validation, so equivalent spellings (address case, padding spaces)
 * count as the same body.
 */
export function hashMintRequest(request: MintRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex')
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  if (typeof value === 'bigint') throw new TypeError('canonicalJson: bigint has no JSON form')
  return JSON.stringify(value) ?? 'null'
}
