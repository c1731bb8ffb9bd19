import http from 'node:http'
import { nowMs } from '../system/clock'
import type { ApiPost } from './buildApiPost'
import type { HttpSession } from './signIn'

export type PostResult = { status: number; body: string; sentAt: number; doneAt: number }

export type JsonPoster = {
  /** sends a POST built by buildApiPost (bench/http/buildApiPost.ts): its path and body typed by the contract */
  post: (request: ApiPost) => Promise<PostResult>
  close: () => void
}

/**
 * POSTs JSON with the session's cookie and Origin over keep-alive connections (at most
 * `maxSockets` at once): the pipeline's client, which needs each request's send time
 * and the order id of its answer (autocannon gives neither per request). Its requests are
 * typed as createApiClient's are (buildApiPost: the path, its parameters and the body checked
 * against the generated paths); the sending stays node:http on this pool, whose sockets and
 * timing are what the bench measures, rather than fetch's own pool behind the typed client.
 */
export function createJsonPoster({ session, maxSockets }: { session: HttpSession; maxSockets: number }): JsonPoster {
  const url = new URL(session.baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets })
  // a kept-alive socket the server closed while it sat idle (its keep-alive timeout, e.g.
  // through a long notification window) resets the request sent on it before the server read
  // it: sent again once on a new connection of its own (outside the pool, whose other idle sockets may be closed
  // too), as Node's documentation of `reusedSocket` advises
  const post = ({ path, body }: ApiPost): Promise<PostResult> =>
    postOnce(path, body, agent).catch((error: unknown) => {
      if (error instanceof ResetOnReusedSocket) return postOnce(path, body, false)
      throw error
    })
  const postOnce = (path: string, body: string, via: http.Agent | false) =>
    new Promise<PostResult>((resolve, reject) => {
      const sentAt = nowMs()
      const req = http.request(
        {
          agent: via,
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            origin: session.origin,
            cookie: session.cookie,
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              sentAt,
              doneAt: nowMs(),
            }),
          )
          res.on('error', reject)
        },
      )
      req.on('error', (error: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && error.code === 'ECONNRESET' ? new ResetOnReusedSocket(error) : error),
      )
      req.end(body)
    })
  return { post, close: () => agent.destroy() }
}

class ResetOnReusedSocket extends Error {
  constructor(cause: Error) {
    super('the server closed a kept-alive socket as the request went out on it', { cause })
  }
}
