import { createPublicClient, defineChain, http, type PublicClient } from 'viem'

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
 * block number or nonce read twice is read twice) and no transport retries
 * (retryCount 0): the caller, usually a job that is itself retried, decides.
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
    transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }),
    pollingInterval: pollingMs,
    cacheTime: 0,
  })
}
