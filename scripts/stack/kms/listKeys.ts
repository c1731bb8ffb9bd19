import { KmsServiceError } from '../../errors/stack'
import type { KeyStore } from './keyStore'
import type { KmsRequestBody } from './kmsProtocol'
import { optionalNumber, optionalString } from './requestFields'

/** ListKeys: a page of keys in creation order; the Marker is the next index. */
export function listKeys(store: KeyStore, { body }: { body: KmsRequestBody }) {
  const limit = optionalNumber(body, 'Limit') ?? 100
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new KmsServiceError('ValidationException', 'Limit must be 1 to 1000')
  const marker = optionalString(body, 'Marker')
  const start = marker === undefined ? 0 : /^\d+$/.test(marker) ? Number(marker) : Number.NaN
  if (!Number.isInteger(start) || start < 0)
    throw new KmsServiceError('InvalidMarkerException', `invalid Marker ${marker}`)
  const all = store.all()
  const page = all.slice(start, start + limit)
  const truncated = start + limit < all.length
  return {
    Keys: page.map((k) => ({ KeyId: k.keyId, KeyArn: k.arn })),
    Truncated: truncated,
    ...(truncated ? { NextMarker: String(start + limit) } : {}),
  }
}
