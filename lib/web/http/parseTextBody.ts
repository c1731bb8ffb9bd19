import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@/lib/web/errors/request'

export type ParseTextBodyParameters = {
  /**
   * the media types the route takes, lower case (`application/json`, `text/csv`); a charset
   * other than UTF-8 is refused
   */
  mediaTypes: readonly string[]
  maxBytes: number
}

/** A body read as UTF-8 text, with the media type it came as. */
export type RawBody = { mediaType: string; text: string }

/**
 * Reads a request body as UTF-8 text, for routes that take more than JSON (a bar list as
 * JSON or CSV). Same rules and order as parseJsonBody: 415 `unsupported_media_type` for a
 * Content-Type not in `mediaTypes`; 413 `payload_too_large` past `maxBytes`, judged by a
 * Content-Length over it (nothing read) and by the bytes actually read (reading stops
 * there); 422 for bytes that are not UTF-8. Chunks are decoded as they arrive, so the
 * body is held once, as text, never also as one buffer of bytes.
 */
export async function parseTextBody(
  request: Request,
  { mediaTypes, maxBytes }: ParseTextBodyParameters,
): Promise<RawBody> {
  const mediaType = mediaTypeOf(request.headers.get('content-type'))
  if (mediaType === null || !mediaTypes.includes(mediaType)) throw new UnsupportedMediaTypeError({ mediaTypes })

  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
    await request.body?.cancel().catch(() => {})
    throw new PayloadTooLargeError({ limitBytes: maxBytes })
  }
  if (!request.body) return { mediaType, text: '' }

  const decoder = new TextDecoder('utf-8', { fatal: true })
  const reader = request.body.getReader()
  const parts: string[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel().catch(() => {})
        throw new PayloadTooLargeError({ limitBytes: maxBytes })
      }
      parts.push(decoder.decode(value, { stream: true }))
    }
    parts.push(decoder.decode())
  } catch (error) {
    if (error instanceof TypeError) {
      await reader.cancel().catch(() => {})
      throw new ValidationError(
        [{ path: '', message: 'the body is not UTF-8 text' }],
        'The request body is not UTF-8.',
        { cause: error },
      )
    }
    throw error
  }
  return { mediaType, text: parts.join('') }
}

/** `text/csv; charset=utf-8` -> `text/csv`; null when absent or another charset. */
function mediaTypeOf(header: string | null): string | null {
  if (!header) return null
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase())
  for (const param of params) {
    const [name, rawValue = ''] = param.split('=').map((x) => x.trim())
    const value = rawValue.replace(/^"(.*)"$/, '$1')
    if (name === 'charset' && value !== 'utf-8' && value !== 'utf8') return null
  }
  return type || null
}
