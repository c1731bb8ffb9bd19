import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedWebhook = {
  at: number
  eventId: string
  signature: string
  rawBody: string
  headers: IncomingMessage['headers']
}

/** What the receiver does with the n-th request (1-based): answer with a status, or hold it (never answer). */
export type ReceiverPlan = (n: number, request: ReceivedWebhook) => { status: number; delayMs?: number } | 'hold'

export type WebhookReceiver = {
  url: string
  received: ReceivedWebhook[]
  /** requests answered with a 2xx, by event id */
  acknowledged: Map<string, number>
  /** resolves at the next request's arrival */
  nextRequest: () => Promise<ReceivedWebhook>
  close: () => Promise<void>
}

/**
 * TEST ONLY: a local HTTP receiver of webhooks (loopback, allowed outside production). Every
 * request is recorded at arrival, with its raw body and headers, before the plan decides
 * its answer.
 */
export async function startWebhookReceiver(plan: ReceiverPlan): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = []
  const acknowledged = new Map<string, number>()
  const held = new Set<ServerResponse>()
  let waiters: ((r: ReceivedWebhook) => void)[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const request: ReceivedWebhook = {
        at: Date.now(),
        eventId: String(req.headers['webhook-id'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        rawBody: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      }
      received.push(request)
      const wake = waiters
      waiters = []
      for (const w of wake) w(request)
      const decision = plan(received.length, request)
      if (decision === 'hold') {
        held.add(res)
        return
      }
      setTimeout(() => {
        res.writeHead(decision.status, { 'content-type': 'text/plain' })
        res.end(decision.status < 300 ? 'thanks' : 'not now')
        if (decision.status >= 200 && decision.status < 300)
          acknowledged.set(request.eventId, (acknowledged.get(request.eventId) ?? 0) + 1)
      }, decision.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/mintdesk`,
    received,
    acknowledged,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      for (const res of held) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
