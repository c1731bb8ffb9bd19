import { KmsServiceError } from '../../errors/stack'
import type { KmsRequestBody } from './kmsProtocol'

// Reading a request's fields with KMS's own checks and messages: a wrong type or a
// missing member is a ValidationException, a blob that is not base64 a
// SerializationException.

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export function optionalString(body: KmsRequestBody, field: string): string | undefined {
  const v = body[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new KmsServiceError('ValidationException', `${field} must be a string`)
  return v
}

export function requireString(body: KmsRequestBody, field: string, maxLength: number): string {
  const v = optionalString(body, field)
  if (v === undefined || v.length === 0) {
    throw new KmsServiceError(
      'ValidationException',
      `1 validation error detected: Value null at '${lowerFirst(field)}' failed to satisfy constraint: Member must not be null`,
    )
  }
  if (v.length > maxLength)
    throw new KmsServiceError('ValidationException', `${field} is longer than ${maxLength} characters`)
  return v
}

export function optionalNumber(body: KmsRequestBody, field: string): number | undefined {
  const v = body[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number') throw new KmsServiceError('ValidationException', `${field} must be a number`)
  return v
}

export function requireBlob(body: KmsRequestBody, field: string): Uint8Array {
  const v = requireString(body, field, 8 * 1024)
  if (!BASE64_RE.test(v)) throw new KmsServiceError('SerializationException', `${field} is not base64`)
  return new Uint8Array(Buffer.from(v, 'base64'))
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1)
}
