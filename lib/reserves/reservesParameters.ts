import type { Config } from '@/lib/config/loadConfig'
import { createChainClient } from '@/lib/chain/createChainClient'
import type { GetReservesParameters } from './getReserves'

/**
 * getReserves's parameters from the web's configuration: a read-only chain client (the
 * web never signs or sends) with a short timeout, so a slow RPC costs a public request
 * at most two short waits before the latest check answers instead.
 */
export function reservesParameters(config: Config, { onChainError }: Pick<GetReservesParameters, 'onChainError'> = {}): GetReservesParameters {
  const chain =
    config.rpcUrl && config.chainId
      ? createChainClient({ rpcUrl: config.rpcUrl, chainId: config.chainId, pollingMs: config.rpcPollingMs, timeoutMs: 2_500 })
      : null
  return { chain, chainId: config.chainId, tokenAddress: config.tokenAddress, onChainError }
}
