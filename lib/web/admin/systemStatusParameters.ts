import { createChainClient } from '@/lib/chain/createChainClient'
import type { Config } from '@/lib/config/loadConfig'
import type { ReadSystemStatusParameters } from './readSystemStatus'

/**
 * readSystemStatus's parameters from the web's configuration: a read-only chain client
 * (the web never signs or sends) with a short timeout, the RPC URL in dev mode only.
 */
export function systemStatusParameters(config: Config): ReadSystemStatusParameters {
  const chain =
    config.rpcUrls.length > 0 && config.chainId
      ? createChainClient({
          rpcUrls: config.rpcUrls,
          chainId: config.chainId,
          pollingMs: config.rpcPollingMs,
          healthMs: config.rpcHealthMs,
          maxLagBlocks: config.rpcMaxLagBlocks,
          timeoutMs: 2_500,
        })
      : null
  return {
    chain,
    chainId: config.chainId,
    tokenAddress: config.tokenAddress,
    confirmations: config.confirmations,
    rpcUrl: config.production ? undefined : config.rpcUrl,
    showRpcUrls: !config.production,
    lowBalanceWei: config.lowBalanceWei,
    staleAfterMs: config.worker.staleAfterMs,
    chainTimeoutMs: 3_000,
  }
}
