import { MalformedJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '@/lib/web/errors/request'

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

export type ParseJsonBodyParameters = { maxBytes?: number }

/**
 * Reads a request body as JSON, enforcing the API's rules in this order:
 * 415 `unsupported_media_type` unless the Content-Type is application/json (a charset
 * other than UTF-8 is refused too); 413 `payload_too_large` past `maxBytes` (64 KiB),
 * judged by the bytes actually read: a Content-Length over the limit is refused without
 * reading, and reading stops as soon as the limit is passed, whatever Content-Length
 * claimed; 400 `malformed_json` for an empty body, invalid UTF-8 or invalid JSON.
 */
export async function parseJsonBody(
  request: Request,
  { maxBytes = DEFAULT_MAX_BODY_BYTES }: ParseJsonBodyParameters = {},
): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) throw new UnsupportedMediaTypeError()

  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
    await request.body?.cancel().catch(() => {})
    throw new PayloadTooLargeError({ limitBytes: maxBytes })
  }

  const bytes = await readLimited(request, maxBytes)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch (cause) {
    throw new MalformedJsonError({ cause })
  }
  if (text.trim() === '') throw new MalformedJsonError()
  try {
    return JSON.parse(text) as unknown
  } catch (cause) {
    throw new MalformedJsonError({ cause })
  }
}

/** `application/json`, optionally with `; charset=utf-8`; case-insensitive. */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase())
  if (type !== 'application/json') return false
  for (const param of params) {
    const [name, rawValue = ''] = param.split('=').map((x) => x.trim())
    const value = rawValue.replace(/^"(.*)"$/, '$1')
    if (name === 'charset' && value !== 'utf-8' && value !== 'utf8') return false
  }
  return true
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new PayloadTooLargeError({ limitBytes: maxBytes })
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}
