import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@/lib/web/errors/request'

export type OpenTextBodyParameters = {
  /**
   * the media types the route takes, lower case (`application/json`, `text/csv`); a charset other
   * than UTF-8 is refused
   */
  mediaTypes: readonly string[]
  maxBytes: number
}

/** A body as UTF-8 text, chunk by chunk as it arrives, with the media type it came as. Read once. */
export type RawBody = { mediaType: string; chunks: AsyncIterable<string> }

export type OpenTextBodyReturnType = RawBody & {
  /**
   * Reads what the handler left of the body and throws it away (nothing is kept), so the
   * client, still sending, gets the answer rather than a reset connection: 413
   * `payload_too_large` when the whole body turns out to be over `maxBytes` (reading
   * stops there and the rest is cancelled).
   */
  discardRest: () => Promise<void>
}

/**
 * Opens a request body as a stream of UTF-8 text, for routes that parse it as it comes
 * (a bar list as JSON or CSV, up to 20 MiB): only the chunk at hand is in memory, never
 * the whole body. Same rules and order as parseJsonBody: 415 `unsupported_media_type` for
 * a Content-Type not in `mediaTypes` and 413 `payload_too_large` for a Content-Length over
 * `maxBytes`, both here, before anything is read; while the chunks are read, 413 as soon as
 * the bytes read pass `maxBytes`, 422 at the first bytes that are not UTF-8.
 *
 * ```ts
 * const body = await openTextBody(req, { mediaTypes: ['text/csv'], maxBytes: 20 * 1024 * 1024 })
 * for await (const text of body.chunks) parser.push(text)
 * ```
 */
export async function openTextBody(
  request: Request,
  { mediaTypes, maxBytes }: OpenTextBodyParameters,
): Promise<OpenTextBodyReturnType> {
  const mediaType = mediaTypeOf(request.headers.get('content-type'))
  if (mediaType === null || !mediaTypes.includes(mediaType)) throw new UnsupportedMediaTypeError({ mediaTypes })

  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
    await request.body?.cancel().catch(() => {})
    throw new PayloadTooLargeError({ limitBytes: maxBytes })
  }

  const reader = request.body?.getReader()
  let total = 0
  let finished = !reader
  /** the next chunk of bytes, or null at the end; 413 past maxBytes (the rest cancelled) */
  const next = async (): Promise<Uint8Array | null> => {
    if (!reader || finished) return null
    const { done, value } = await reader.read()
    if (done) {
      finished = true
      return null
    }
    total += value.byteLength
    if (total > maxBytes) {
      finished = true
      await reader.cancel().catch(() => {})
      throw new PayloadTooLargeError({ limitBytes: maxBytes })
    }
    return value
  }

  async function* chunks(): AsyncGenerator<string> {
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const decode = (bytes?: Uint8Array) => {
      try {
        return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode()
      } catch (cause) {
        throw new ValidationError(
          [{ path: '', message: 'the body is not UTF-8 text' }],
          'The request body is not UTF-8.',
          {
            cause,
          },
        )
      }
    }
    for (let bytes = await next(); bytes; bytes = await next()) {
      const text = decode(bytes)
      if (text) yield text
    }
    const tail = decode()
    if (tail) yield tail
  }

  return {
    mediaType,
    chunks: chunks(),
    discardRest: async () => {
      while (await next()) {
        // thrown away
      }
    },
  }
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
