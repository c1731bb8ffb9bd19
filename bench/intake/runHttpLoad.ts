import autocannon from 'autocannon'
import type { HttpSession } from '../http/signIn'
import { summarize } from '../system/percentiles'
import type { MintBodies } from './createMintBodies'
import type { LoadResult } from './runRawSqlIntake'

export type RunHttpLoadParameters = {
  session: HttpSession
  path: string
  connections: number
  durationSec: number
  bodies: MintBodies
  /** the answer that counts as success (202; 415 for the floor) */
  expectStatus: number
  /** the request's Content-Type; application/json unless given */
  contentType?: string
}

export type HttpLoadResult = LoadResult & { statuses: Record<string, number>; errors: number }

/**
 * autocannon against one route: `connections` keep-alive connections, each sending the
 * next request when the previous answered, for `durationSec`. Every request gets a body
 * of its own (setupRequest), so no two requests claim the same bar. Latency is taken
 * per response (hrtime, sub-millisecond), counting only the expected status.
 */
export async function runHttpLoad(p: RunHttpLoadParameters): Promise<HttpLoadResult> {
  const headers = {
    'content-type': p.contentType ?? 'application/json',
    origin: p.session.origin,
    cookie: p.session.cookie,
  }
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  const instance = autocannon({
    url: `${p.session.baseUrl}${p.path}`,
    connections: p.connections,
    duration: p.durationSec,
    timeout: 30,
    headers,
    requests: [
      {
        method: 'POST',
        path: p.path,
        headers,
        setupRequest: (request) => ({ ...request, body: p.bodies.next().post.body }),
      },
    ],
  })
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
    if (statusCode === p.expectStatus) latencies.push(responseTime)
  })
  const result = await instance
  const ok = latencies.length
  const failed = Object.entries(statuses).reduce((a, [s, n]) => (Number(s) === p.expectStatus ? a : a + n), 0)
  return {
    ok,
    failed,
    errors: result.errors,
    seconds: result.duration,
    perSecond: ok / result.duration,
    latency: summarize(latencies),
    statuses,
  }
}
