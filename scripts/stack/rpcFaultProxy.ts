import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { type Hex, keccak256 } from 'viem'
import { sleep } from '@/lib/time/sleep'

/**
 * The faults an RPC provider shows in production, in front of anvil, switchable
 * while running (setFaults) or from the environment (rpcFaultsFromEnv):
 * - rate limiting: a share of the requests answered HTTP 429 with `Retry-After` and the
 *   JSON-RPC error -32005, as providers do;
 * - added latency on every request;
 * - dropped connections: a share of the requests whose socket is destroyed unanswered;
 * - a lagging head: for `forMs` out of every `everyMs`, the proxy serves the view of a node
 *   that stopped at the head it had when the lag began (a load-balanced node behind the
 *   others): eth_blockNumber frozen, receipts and transactions of later blocks unknown or
 *   pending, 'latest' reads (nonce, balance, calls, blocks, logs) answered at that block.
 *   Transactions sent meanwhile still reach the chain (the lagging node forwards them);
 * - a lying node: receipts and transactions answered null (unknown) although the chain has them;
 * - a dropping node: transactions taken (their hash answered) and never passed on;
 * - a dead node: every connection destroyed unanswered (switchable, so a provider can be
 *   killed and brought back on the same URL).
 */
export type RpcFaults = {
  /** share of requests answered 429 (0..1) */
  rateLimit?: number
  /** the Retry-After of those answers, in seconds */
  retryAfterSeconds?: number
  /** added to every request */
  latencyMs?: number
  /** share of requests whose connection is dropped (0..1) */
  drop?: number
  /** the lagging head: serve a frozen view for forMs out of every everyMs */
  lag?: { everyMs: number; forMs: number } | undefined
  /** eth_getTransactionReceipt and eth_getTransactionByHash answered null */
  nullReceipts?: boolean
  /** every request's connection destroyed unanswered */
  down?: boolean
  /** eth_sendRawTransaction answered with the transaction's hash and never passed on (a provider that drops it) */
  dropSends?: boolean
}

export type RpcFaultCounts = {
  requests: number
  rateLimited: number
  dropped: number
  lagged: number
  /** eth_sendRawTransaction taken and not passed on (dropSends) */
  droppedSends: number
}

export type RpcFaultProxy = {
  url: string
  faults: () => RpcFaults
  setFaults: (faults: RpcFaults) => void
  counts: RpcFaultCounts
  stop: () => Promise<void>
}

type JsonRpcRequest = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] }
type JsonRpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown }

const hex = (n: bigint) => `0x${n.toString(16)}`

/**
 * The RPC_FAULT_* variables (all optional): RPC_FAULT_RATE_LIMIT (share, e.g. 0.33),
 * RPC_FAULT_RETRY_AFTER_S (default 1), RPC_FAULT_LATENCY_MS, RPC_FAULT_DROP (share),
 * RPC_FAULT_LAG_EVERY_MS with RPC_FAULT_LAG_FOR_MS, RPC_FAULT_NULL_RECEIPTS=1. Undefined when none is set.
 */
export function rpcFaultsFromEnv(env: Record<string, string | undefined>): RpcFaults | undefined {
  const num = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : Number(env[name]))
  const faults: RpcFaults = {
    rateLimit: num('RPC_FAULT_RATE_LIMIT'),
    retryAfterSeconds: num('RPC_FAULT_RETRY_AFTER_S'),
    latencyMs: num('RPC_FAULT_LATENCY_MS'),
    drop: num('RPC_FAULT_DROP'),
  }
  const everyMs = num('RPC_FAULT_LAG_EVERY_MS')
  const forMs = num('RPC_FAULT_LAG_FOR_MS')
  if (everyMs && forMs) faults.lag = { everyMs, forMs }
  if (env.RPC_FAULT_NULL_RECEIPTS === '1') faults.nullReceipts = true
  for (const [k, v] of Object.entries(faults))
    if (typeof v === 'number' && !(v >= 0)) throw new Error(`RPC fault ${k} must be a non-negative number`)
  return Object.values(faults).some((v) => v !== undefined) ? faults : undefined
}

export type StartRpcFaultProxyParameters = {
  target: string
  faults?: RpcFaults
  /**
   * draws the rate-limit and drop decisions (0..1); a seeded
   * one makes a test's sequence of faults the same on every run
   */
  random?: () => number
}

export async function startRpcFaultProxy({
  target,
  faults: initial = {},
  random = Math.random,
}: StartRpcFaultProxyParameters): Promise<RpcFaultProxy> {
  let faults = initial
  let lagStartedAt = Date.now()
  /** the frozen head while lagging, undefined while fresh */
  let frozen: bigint | undefined
  const counts: RpcFaultCounts = { requests: 0, rateLimited: 0, dropped: 0, lagged: 0, droppedSends: 0 }
  const sockets = new Set<Socket>()

  const upstream = async (body: unknown): Promise<unknown> => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
    return res.json()
  }
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const res = (await upstream({ jsonrpc: '2.0', id: 1, method, params })) as JsonRpcResponse
    if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`)
    return res.result
  }

  /** whether the head lags now; freezes it at the start of each lag window */
  const lagging = async (): Promise<bigint | undefined> => {
    const lag = faults.lag
    if (!lag) {
      frozen = undefined
      return undefined
    }
    const inWindow = (Date.now() - lagStartedAt) % lag.everyMs >= lag.everyMs - lag.forMs
    if (!inWindow) frozen = undefined
    else frozen ??= BigInt((await call('eth_blockNumber', [])) as string)
    return frozen
  }

  const tag = (head: bigint, t: unknown) =>
    t === 'latest' || t === 'safe' || t === 'finalized' || t === undefined ? hex(head) : t
  const after = (head: bigint, n: unknown) => typeof n === 'string' && n.startsWith('0x') && BigInt(n) > head

  /** one request as the lagging node answers it */
  const stale = async (head: bigint, req: JsonRpcRequest): Promise<JsonRpcResponse> => {
    const p = req.params ?? []
    const ok = (result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id: req.id, result })
    const forward = async (params: unknown[]) => ({
      ...((await upstream({ ...req, params })) as JsonRpcResponse),
      id: req.id,
    })
    switch (req.method) {
      case 'eth_blockNumber':
        return ok(hex(head))
      case 'eth_getTransactionReceipt': {
        const r = await forward(p)
        const block = (r.result as { blockNumber?: string } | null)?.blockNumber
        return after(head, block) ? ok(null) : r
      }
      case 'eth_getTransactionByHash': {
        const r = await forward(p)
        const t = r.result as { blockNumber?: string | null } | null
        return t && after(head, t.blockNumber)
          ? ok({ ...t, blockHash: null, blockNumber: null, transactionIndex: null })
          : r
      }
      case 'eth_getBlockByNumber':
        if (after(head, p[0])) return ok(null)
        return forward([p[0] === 'pending' ? p[0] : tag(head, p[0]), ...p.slice(1)])
      case 'eth_getTransactionCount':
      case 'eth_getBalance':
      case 'eth_getCode':
        return forward([p[0], p[1] === 'pending' ? p[1] : tag(head, p[1])])
      case 'eth_call':
      case 'eth_estimateGas':
        return forward([p[0], p[1] === 'pending' ? p[1] : tag(head, p[1]), ...p.slice(2)])
      case 'eth_getLogs': {
        const filter = (p[0] ?? {}) as { toBlock?: string; fromBlock?: string }
        const toBlock =
          filter.toBlock === undefined || filter.toBlock === 'latest' || after(head, filter.toBlock)
            ? hex(head)
            : filter.toBlock
        if (after(head, filter.fromBlock)) return ok([])
        return forward([{ ...filter, toBlock }])
      }
      case 'eth_feeHistory':
        return forward([p[0], tag(head, p[1]), ...p.slice(2)])
      default:
        return forward(p)
    }
  }

  const lie = (req: JsonRpcRequest): JsonRpcResponse | undefined => {
    if (
      faults.nullReceipts &&
      (req.method === 'eth_getTransactionReceipt' || req.method === 'eth_getTransactionByHash')
    )
      return { jsonrpc: '2.0', id: req.id, result: null }
    if (faults.dropSends && req.method === 'eth_sendRawTransaction') {
      counts.droppedSends++
      return { jsonrpc: '2.0', id: req.id, result: keccak256(req.params?.[0] as Hex) }
    }
    return undefined
  }

  const handle = async (body: unknown): Promise<unknown> => {
    if (faults.nullReceipts || faults.dropSends) {
      const one = async (req: JsonRpcRequest) => lie(req) ?? handleOne(req)
      return Array.isArray(body) ? Promise.all(body.map((r) => one(r as JsonRpcRequest))) : one(body as JsonRpcRequest)
    }
    return handleOne(body)
  }

  const handleOne = async (body: unknown): Promise<unknown> => {
    const head = await lagging()
    if (head === undefined) return upstream(body)
    counts.lagged++
    if (Array.isArray(body)) return Promise.all(body.map((r) => stale(head, r as JsonRpcRequest)))
    return stale(head, body as JsonRpcRequest)
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        counts.requests++
        const f = faults
        if (f.latencyMs) await sleep({ ms: f.latencyMs })
        if (f.down || (f.drop && random() < f.drop)) {
          counts.dropped++
          req.socket.destroy()
          return
        }
        let body: unknown
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        } catch {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
          return
        }
        if (f.rateLimit && random() < f.rateLimit) {
          counts.rateLimited++
          const id = Array.isArray(body) ? null : ((body as { id?: unknown }).id ?? null)
          res
            .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(f.retryAfterSeconds ?? 1) })
            .end(
              JSON.stringify({
                jsonrpc: '2.0',
                id,
                error: { code: -32005, message: 'rate limit exceeded (injected)' },
              }),
            )
          return
        }
        try {
          const answer = await handle(body)
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
        } catch {
          res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream unreachable')
        }
      })()
    })
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo // listening on TCP: always an AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    faults: () => faults,
    setFaults: (next) => {
      faults = next
      lagStartedAt = Date.now()
      frozen = undefined
    },
    counts,
    stop: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
