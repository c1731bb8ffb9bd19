import { createPublicClient, defineChain, http, type PublicClient } from 'viem'
import { traceTransport } from '@/lib/telemetry/traceTransport'
import { createRetryingFetch } from './createRetryingFetch'

export type CreateChainClientParameters = {
  rpcUrl: string
  chainId: number
  /** viem's polling interval (waitForTransactionReceipt, watchers): ~100 ms on anvil, seconds on a real chain */
  pollingMs: number
  /** per-request timeout of the HTTP transport */
  timeoutMs?: number
}

export type CreateChainClientReturnType = PublicClient

/**
 * The read side of the chain, shared by web and worker. No caching (cacheTime 0: a
 * block number or nonce read twice is read twice). A provider's transient answers (429
 * with its Retry-After, 5xx, a dropped connection) are retried inside the request's
 * timeout with backoff and jitter (createRetryingFetch); viem's own retries
 * stay off (retryCount 0): anything else, a timeout included, goes to the caller, usually
 * a job that is itself retried.
 */
export function createChainClient({
  rpcUrl,
  chainId,
  pollingMs,
  timeoutMs = 10_000,
}: CreateChainClientParameters): CreateChainClientReturnType {
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  return createPublicClient({
    chain,
    // requests of the same tick go out as one JSON-RPC batch (the confirmer's receipts: one round trip per pass);
    // a mint's chain calls are spans of its trace (traceTransport)
    transport: traceTransport(
      http(rpcUrl, { timeout: timeoutMs, retryCount: 0, fetchFn: createRetryingFetch(), batch: { batchSize: 100 } }),
    ),
    pollingInterval: pollingMs,
    cacheTime: 0,
  })
}
