import { createPublicClient, defineChain, fallback, type PublicClient, type Transport } from 'viem'
import { traceTransport } from '@/lib/telemetry/traceTransport'
import { createRpcEndpoints, type RpcEndpoints } from './createRpcEndpoints'

export type CreateChainClientParameters = {
  /** one endpoint (RPC_URL); or rpcUrls */
  rpcUrl?: string
  /** several endpoints in rank order (RPC_URLS): the first is used while it is healthy */
  rpcUrls?: readonly string[]
  chainId: number
  /** viem's polling interval (waitForTransactionReceipt, watchers): ~100 ms on anvil, seconds on a real chain */
  pollingMs: number
  /** per-request timeout of the HTTP transport */
  timeoutMs?: number
  /** with several endpoints: how often their health is probed while the client is used */
  healthMs?: number
  /** with several endpoints: one whose head is behind the best by more than this is down */
  maxLagBlocks?: number
}

export type CreateChainClientReturnType = PublicClient

/** the reads whose null answer ("I do not know it") is checked against the other endpoints */
const CROSS_CHECKED = new Set(['eth_getTransactionReceipt', 'eth_getTransactionByHash'])

/**
 * The read side of the chain, shared by web and worker. No caching (cacheTime 0: a
 * block number or nonce read twice is read twice). A provider's transient answers (429
 * with its Retry-After, 5xx, a dropped connection) are retried with backoff and jitter
 * (createRetryingFetch); anything else, a timeout included, goes to the caller, usually a
 * job that is itself retried. Requests of the same tick go out as one JSON-RPC batch; a
 * mint's chain calls are spans of its trace (traceTransport).
 *
 * With several endpoints (RPC_URLS) the transport is viem's fallback over them in rank
 * order, each behind its health (createRpcEndpoints): a dead endpoint or one whose head lags
 * is skipped at once until a probe finds it well again, and the whole fallback is tried
 * again twice (viem's retryCount) when every endpoint failed. A receipt or transaction
 * answered null is asked of the other healthy endpoints before it is believed, so a
 * lagging or lying node does not make a mined transaction look unknown. The endpoints and
 * their health are on the transport (rpcEndpointsOf); worker/chain/broadcastRawTx.ts sends
 * to each of them.
 */
export function createChainClient({
  rpcUrl,
  rpcUrls,
  chainId,
  pollingMs,
  timeoutMs = 10_000,
  healthMs,
  maxLagBlocks,
}: CreateChainClientParameters): CreateChainClientReturnType {
  const urls = rpcUrls && rpcUrls.length > 0 ? rpcUrls : rpcUrl ? [rpcUrl] : []
  if (urls.length === 0) throw new Error('createChainClient needs rpcUrl or rpcUrls')
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [...urls] } },
  })
  const rpc = createRpcEndpoints({ urls, chain, timeoutMs, healthMs, maxLagBlocks })
  const [only] = rpc.endpoints
  const inner =
    rpc.endpoints.length === 1
      ? only.transport
      : fallback(
          rpc.endpoints.map((e) => e.transport),
          { retryCount: 2, retryDelay: 150 },
        )
  return createPublicClient({
    chain,
    transport: traceTransport(withEndpoints(inner, rpc)),
    pollingInterval: pollingMs,
    cacheTime: 0,
  })
}

/**
 * the transport with the endpoints as its value (client.transport.rpcEndpoints) and, with
 * several, null answers checked
 */
function withEndpoints(transport: Transport, rpc: RpcEndpoints): Transport {
  return (params) => {
    const inner = transport(params)
    return {
      ...inner,
      value: { ...inner.value, rpcEndpoints: rpc },
      // the answer of another endpoint to the same call: of the same type as the inner transport's
      request: (async (args: Parameters<typeof inner.request>[0], options?: Parameters<typeof inner.request>[1]) => {
        const answer = await inner.request(args, options)
        if (answer !== null || rpc.endpoints.length === 1 || !CROSS_CHECKED.has(args.method)) return answer
        const others = await Promise.allSettled(
          rpc.usable().map((e) => e.request({ method: args.method, params: args.params } as never)),
        )
        for (const other of others) if (other.status === 'fulfilled' && other.value !== null) return other.value
        return answer
      }) as typeof inner.request,
    }
  }
}
