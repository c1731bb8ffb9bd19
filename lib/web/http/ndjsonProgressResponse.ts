import { toErrorResponse } from '@/lib/web/errors/toErrorResponse'
import { stringifyJson } from './json'

export const NDJSON_MEDIA_TYPE = 'application/x-ndjson'

export type NdjsonProgressResponseParameters<P extends object> = {
  /** the work: it reports with `progress` as it goes and returns what a plain request answers */
  run: (progress: (p: P) => void) => Promise<{ status: number; body: unknown }>
  /**
   * after a failure, before the result line (e.g. the rest of the request body read and thrown away); what it
   * throws is the result instead
   */
  onError?: () => Promise<void>
}

/**
 * A long request's answer as it goes, for a client that asked for it (`Accept:
 * application/x-ndjson`): 200 at once, then one JSON object a line, `{ "type":
 * "progress", ...p }` each time the work reports, and last `{ "type": "result", status,
 * body }`, where status and body are what the same request answers without the header (a
 * refusal: its error status and the API's error shape, from toErrorResponse). The work
 * runs to its end even when the client goes away. `no-transform` keeps a compressing proxy
 * from holding the lines back.
 */
export function ndjsonProgressResponse<P extends object>(p: NdjsonProgressResponseParameters<P>): Response {
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true
      const write = (line: unknown) => {
        if (!open) return
        try {
          controller.enqueue(encoder.encode(`${stringifyJson(line)}\n`))
        } catch {
          // the client went away: the work goes on, unheard
          open = false
        }
      }
      let result: { status: number; body: unknown }
      try {
        result = await p.run((progress) => write({ type: 'progress', ...progress }))
      } catch (error) {
        let failure = error
        try {
          await p.onError?.()
        } catch (later) {
          // e.g. the rest of the body is over the limit: 413, as the same request answers without the header
          failure = later
        }
        const answer = toErrorResponse(failure)
        result = { status: answer.status, body: await answer.json() }
      }
      write({ type: 'result', ...result })
      if (open) controller.close()
    },
  })
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': `${NDJSON_MEDIA_TYPE}; charset=utf-8`,
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    },
  })
}

/** Whether the request asks for its answer as progress lines. */
export function acceptsNdjson(req: Request): boolean {
  return (req.headers.get('accept') ?? '').toLowerCase().includes(NDJSON_MEDIA_TYPE)
}
