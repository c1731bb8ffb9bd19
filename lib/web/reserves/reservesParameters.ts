import { createChainClient } from '@/lib/chain/createChainClient'
import type { Config } from '@/lib/config/loadConfig'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import type { GetReservesOrThrowParameters } from './getReservesOrThrow'

/**
 * getReservesOrThrow's parameters from the web's configuration: a read-only chain client (the
 * web never signs or sends) with a short timeout, so a slow RPC costs a read at most two
 * short waits before the latest check answers instead; a failed read goes to the server
 * log as one JSON line, its RPC URL redacted (it carries the API key). Made once per
 * process (lib/web/webProcess.ts, getReservesReader), whose cache makes one read per interval.
 */
export function reservesParameters(config: Config): GetReservesOrThrowParameters {
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
    minterAddress: config.minterAddress,
    onChainError: logChainError,
  }
}

function logChainError(error: unknown): void {
  const err = redactSecrets(error instanceof Error ? error.message : String(error)).split('\n')[0]
  console.warn(
    JSON.stringify({
      level: 'warn',
      msg: 'reserves: the chain could not be read, answering with the latest check',
      err,
    }),
  )
}
