import { createChainClient } from '@/lib/chain/createChainClient'
import type { Config } from '@/lib/config/loadConfig'
import type { ReadSystemStatusParameters } from './readSystemStatus'

/**
 * readSystemStatus's parameters from the web's configuration: a read-only chain client
 * (the web never signs or sends) with a short timeout, the RPC URL in dev mode only.
 */
export function systemStatusParameters(config: Config): ReadSystemStatusParameters {
  const chain =
    config.rpcUrl && config.chainId
      ? createChainClient({
          rpcUrl: config.rpcUrl,
          chainId: config.chainId,
          pollingMs: config.rpcPollingMs,
          timeoutMs: 2_500,
        })
      : null
  return {
    chain,
    chainId: config.chainId,
    tokenAddress: config.tokenAddress,
    confirmations: config.confirmations,
    rpcUrl: config.production ? undefined : config.rpcUrl,
    lowBalanceWei: config.lowBalanceWei,
    staleAfterMs: config.worker.staleAfterMs,
    chainTimeoutMs: 3_000,
  }
}
