import type { ReservesReader } from './createReservesReader'
import type { AttestationQuery } from './schemas'

export type AttestationResponseParameters = AttestationQuery & {
  /** the request's Accept header: `text/csv` asks for the CSV when `format` is not given */
  accept: string | null
}

/**
 * GET /api/reserves/attestation?block=N: the pack of block N (ReservesReader.attestation) as a download, JSON unless
 * `?format=csv` or, without `format`, an Accept header that names text/csv (`?format=json` wins over any Accept).
 * `X-Pack-Sha256` carries the sha256 (hex) of exactly the bytes sent; a final pack may be cached by anyone (the same
 * block always gives the same bytes), another is not stored.
 */
export async function attestationResponse(reader: ReservesReader, p: AttestationResponseParameters): Promise<Response> {
  const format = p.format ?? (acceptsCsv(p.accept) ? 'csv' : 'json')
  const answer = await reader.attestation(p.block)
  const file = answer[format]
  const name = `mintdesk-attestation-${answer.pack.chainId}-${answer.pack.block.number}.${format}`
  return new Response(file.body, {
    status: 200,
    headers: {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'x-pack-sha256': file.sha256,
      'cache-control': answer.final ? 'public, max-age=86400, immutable' : 'no-store',
      vary: 'Accept',
    },
  })
}

/** Whether an Accept header names text/csv (with any parameters), unless with q=0. */
function acceptsCsv(accept: string | null): boolean {
  if (!accept) return false
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    return type === 'text/csv' && !params.some((q) => /^q=0(\.0*)?$/.test(q))
  })
}
