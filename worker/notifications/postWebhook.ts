import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { type ResolveHost, resolveSafeAddresses } from '@/lib/notifications/resolveSafeAddresses'

export type PostWebhookParameters = {
  url: string
  headers: Record<string, string>
  rawBody: string
  timeoutMs: number
  production: boolean
  resolve?: ResolveHost
}

export type PostWebhookReturnType = {
  /** null: no answer (refused, timeout, connection error) */
  statusCode: number | null
  durationMs: number
  /** the first bytes of the answer's body, or the error */
  excerpt: string | null
  error: string | null
}

const EXCERPT_BYTES = 1024

/**
 * POSTs one delivery, never throwing: the answer (status, latency, the first KiB of the
 * body) or what went wrong. The socket connects through a lookup that resolves the host,
 * checks EVERY address (resolveSafeAddresses: in production none may be private) and
 * hands the socket the address it checked, so no second resolution can point it elsewhere
 * (DNS rebinding). Redirects are not followed (a 3xx is a failure). The whole exchange,
 * body included, must end within timeoutMs.
 */
export async function postWebhook(p: PostWebhookParameters): Promise<PostWebhookReturnType> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const url = new URL(p.url)
  const client = url.protocol === 'https:' ? https : http
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolveSafeAddresses({ hostname, production: p.production, resolve: p.resolve }).then(
      (safe) => {
        if (!safe.ok)
          return callback(Object.assign(new Error(`refused: ${safe.reason}`), { code: 'EREFUSED_TARGET' }), '', 4)
        const wanted =
          options.family === 4 || options.family === 6
            ? safe.addresses.filter((a) => a.family === options.family)
            : safe.addresses
        const chosen = wanted.length > 0 ? wanted : safe.addresses
        if (options.all)
          return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, chosen)
        const first = chosen[0]
        if (!first) return callback(new Error('no address'), '', 4)
        callback(null, first.address, first.family)
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 4),
    )
  }
  return new Promise<PostWebhookReturnType>((resolve) => {
    let settled = false
    const finish = (r: Omit<PostWebhookReturnType, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...r, durationMs: elapsed() })
    }
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...p.headers, 'content-length': String(Buffer.byteLength(p.rawBody)) },
        lookup,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk)
          size += chunk.length
        })
        res.on('end', () =>
          finish({
            statusCode: res.statusCode ?? null,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES),
            error: null,
          }),
        )
        res.on('error', (error) => finish({ statusCode: res.statusCode ?? null, excerpt: null, error: error.message }))
      },
    )
    const timer = setTimeout(() => {
      req.destroy(new Error(`no complete answer within ${p.timeoutMs} ms`))
    }, p.timeoutMs)
    req.on('error', (error) => finish({ statusCode: null, excerpt: null, error: error.message }))
    req.end(p.rawBody)
  })
}
