import {
  type Chain,
  type EIP1193RequestFn,
  HttpRequestError,
  http,
  type PublicRpcSchema,
  TimeoutError,
  type Transport,
} from 'viem'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { RpcEndpointDownError } from '@/lib/errors/rpc'
import { traceTransport } from '@/lib/telemetry/traceTransport'
import { createRetryingFetch } from './createRetryingFetch'
import { judgeRpcHeads, type RpcHeadStall } from './judgeRpcHeads'

export type RpcEndpointHealth = {
  /**
   * false: unreachable at the last probe or request, or its head behind the best by more than maxLagBlocks, or behind
   * it without moving for stalledAfterMs
   */
  healthy: boolean
  /** its block number at the last probe; null before the first or when it did not answer */
  head: bigint | null
  /** how long its last probe took; null when it did not answer */
  latencyMs: number | null
  /** why it is down (no URL in it: viem's messages carry it, and a provider's URL carries its key) */
  lastError: string | null
}

export type RpcEndpoint = {
  /** its place in RPC_URLS, 0 first: the rank it has while healthy */
  index: number
  url: string
  /** "rpc 1" for the first of RPC_URLS: what the admin page shows outside dev mode */
  label: string
  health: RpcEndpointHealth
  /** the endpoint as a viem transport (the fallback's member): refuses at once while it is down and another is up */
  transport: Transport
  /** one request to this endpoint alone (through its gate, traced), e.g. a send to every endpoint */
  request: EIP1193RequestFn<PublicRpcSchema>
}

export type RpcEndpoints = {
  endpoints: readonly RpcEndpoint[]
  /** the healthy endpoints in rank order; every endpoint when none is healthy (trying beats giving up) */
  usable: () => RpcEndpoint[]
  /** one probe round, awaited: eth_blockNumber on every endpoint, heads compared; updates and returns the health */
  probe: () => Promise<readonly RpcEndpoint[]>
  /** starts a probe round when the last one is older than healthMs (not awaited); with one endpoint, nothing */
  refresh: () => void
}

export type CreateRpcEndpointsParameters = {
  urls: readonly string[]
  chain: Chain
  /** per-request timeout of each endpoint's HTTP transport */
  timeoutMs: number
  /** how often the health is probed while the client is used (no request, no probe: nothing runs idle) */
  healthMs?: number
  /** an endpoint whose head is behind the best by more than this is down */
  maxLagBlocks?: number
  /** a probe's own timeout: a hanging endpoint is found down this fast */
  probeTimeoutMs?: number
  /** an endpoint behind the best whose head has not moved for this long is down (3 x healthMs unless told) */
  stalledAfterMs?: number
}

/**
 * The chain client's endpoints (RPC_URLS in rank order) with their health. Each endpoint is
 * an HTTP transport with JSON-RPC batching and createRetryingFetch, behind a gate: while it
 * is down and another endpoint is healthy, a request to it fails at once
 * (RpcEndpointDownError), so viem's fallback moves on without waiting. An endpoint goes down
 * when a request to it fails in transport (connection refused or reset, HTTP error status,
 * timeout) or when a probe finds it so, finds its head behind the best by more than
 * maxLagBlocks, or finds it behind the best at the same head for stalledAfterMs (judgeRpcHeads);
 * it comes back at the first probe that finds it answering and current. Probes run on use: a
 * request starts a round (not awaited) when the last is older than healthMs, so an idle client
 * keeps no timer. With several endpoints each fetch retries once (the next endpoint is the
 * better retry); with one, as before (createRetryingFetch's defaults).
 */
export function createRpcEndpoints({
  urls,
  chain,
  timeoutMs,
  healthMs = 2_000,
  maxLagBlocks = 3,
  probeTimeoutMs = 1_000,
  stalledAfterMs = 3 * healthMs,
}: CreateRpcEndpointsParameters): RpcEndpoints {
  const several = urls.length > 1
  const fetchFn = several ? createRetryingFetch({ retries: 1, maxDelayMs: 250 }) : createRetryingFetch()
  let lastProbeAt = 0
  let probing: Promise<readonly RpcEndpoint[]> | undefined
  let stalls: readonly (RpcHeadStall | null)[] = []

  const markDown = (endpoint: RpcEndpoint, error: unknown) => {
    endpoint.health = { ...endpoint.health, healthy: false, lastError: describeRpcError(error) }
  }
  const anyOtherHealthy = (endpoint: RpcEndpoint) => endpoints.some((e) => e !== endpoint && e.health.healthy)

  const endpoints: RpcEndpoint[] = []
  urls.forEach((url, index) => {
    const base = http(url, { timeout: timeoutMs, retryCount: 0, fetchFn, batch: { batchSize: 100 } })
    const gated: Transport = (params) => {
      const inner = base(params)
      return {
        ...inner,
        request: async (args, options) => {
          const endpoint = endpoints[index]
          set.refresh()
          if (!endpoint.health.healthy && anyOtherHealthy(endpoint))
            throw new RpcEndpointDownError(endpoint.label, endpoint.health.lastError ?? 'down')
          try {
            return await inner.request(args, options)
          } catch (error) {
            if (isTransportFailure(error)) markDown(endpoint, error)
            throw error
          }
        },
      }
    }
    const transport = several ? gated : base
    endpoints.push({
      index,
      url,
      label: `rpc ${index + 1}`,
      health: { healthy: true, head: null, latencyMs: null, lastError: null },
      transport,
      // viem's EIP-1193 request of the instantiated transport, typed for the public methods
      request: traceTransport(transport)({ chain, retryCount: 0 }).request as EIP1193RequestFn<PublicRpcSchema>,
    })
  })

  const probeOne = async (endpoint: RpcEndpoint) => {
    const probe = http(endpoint.url, { timeout: probeTimeoutMs, retryCount: 0, batch: false })({ chain, retryCount: 0 })
    const started = performance.now()
    try {
      const head = BigInt((await probe.request({ method: 'eth_blockNumber' })) as string)
      return { head, latencyMs: Math.round(performance.now() - started), error: null }
    } catch (error) {
      return { head: null, latencyMs: null, error: describeRpcError(error) }
    }
  }

  const probe = () => {
    probing ??= (async () => {
      try {
        const answers = await Promise.all(endpoints.map(probeOne))
        const judged = judgeRpcHeads({ answers, maxLagBlocks, stalls, now: Date.now(), stalledAfterMs })
        stalls = judged.stalls
        endpoints.forEach((endpoint, i) => {
          endpoint.health = judged.health[i]
        })
        return endpoints
      } finally {
        lastProbeAt = Date.now()
        probing = undefined
      }
    })()
    return probing
  }

  const set: RpcEndpoints = {
    endpoints,
    usable: () => {
      const healthy = endpoints.filter((e) => e.health.healthy)
      return healthy.length > 0 ? healthy : [...endpoints]
    },
    probe,
    refresh: () => {
      if (!several || probing || Date.now() - lastProbeAt < healthMs) return
      // the round's outcome lands in each endpoint's health; a probe never throws
      void probe()
    },
  }
  return set
}

/** a failure of the transport (the endpoint did not answer as a node), as opposed to a node's JSON-RPC error */
function isTransportFailure(error: unknown): boolean {
  return error instanceof HttpRequestError || error instanceof TimeoutError
}

/** a short reason without the URL: viem's name and its details' first line */
function describeRpcError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const details = (error as Error & { details?: unknown }).details
  const first = typeof details === 'string' && details.trim() !== '' ? details.trim().split('\n')[0] : ''
  const status = error instanceof HttpRequestError && error.status ? ` (HTTP ${error.status})` : ''
  return redactSecrets(`${error.name}${status}${first ? `: ${first}` : ''}`).slice(0, 200)
}
