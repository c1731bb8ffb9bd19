import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** A span as an OTLP/JSON export carries it, with its process's service.name. */
export type SinkSpan = { service: string; traceId: string; spanId: string; parentSpanId: string | null; name: string }

export type OtlpSink = {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the processes: http://127.0.0.1:<port> (they post to /v1/traces) */
  url: string
  /** the spans of every http/json export so far */
  spans: () => SinkSpan[]
  /** exports received (both protocols) and their bytes: http/protobuf bodies are counted, not decoded */
  received: () => { requests: number; bytes: number }
  close: () => Promise<void>
}

type JsonExport = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value?: { stringValue?: string } }[] }
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[]
  }[]
}

/**
 * A local OTLP/HTTP trace receiver for tests and the bench: answers every POST /v1/traces
 * with 200 (an empty ExportTraceServiceResponse, JSON or protobuf as asked) and keeps the
 * spans of JSON exports, so a test can see the spans of real web and worker processes.
 */
export async function startOtlpSink(): Promise<OtlpSink> {
  const spans: SinkSpan[] = []
  let requests = 0
  let bytes = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      requests++
      bytes += body.length
      const json = (req.headers['content-type'] ?? '').includes('json')
      if (req.method === 'POST' && req.url === '/v1/traces' && json) {
        try {
          collect(JSON.parse(body.toString('utf8')) as JsonExport, spans)
        } catch {
          res.writeHead(400).end()
          return
        }
      }
      res
        .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
        .end(json ? '{}' : undefined)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    received: () => ({ requests, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function collect(body: JsonExport, into: SinkSpan[]): void {
  for (const rs of body.resourceSpans ?? []) {
    const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? ''
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        into.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || null, name: s.name })
      }
    }
  }
}
