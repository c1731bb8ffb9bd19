import { rpcFaultsFromEnv, startRpcFaultProxy } from './rpcFaultProxy'

export type StartStackRpcParameters = {
  /** the chain's own endpoint (anvil, or a given RPC_URL) */
  rpcUrl: string
  /** npm start's environment: RPC_FAULT_PROXY, RPC_FAULT_* */
  given: Record<string, string | undefined>
  log: (line: string) => void
}

export type StartStackRpcReturnType = {
  /** the workers' RPC_URL */
  workerRpcUrl: string
  /** RPC_URLS for web and workers, with RPC_FAULT_PROXY=1 */
  env: Record<string, string>
  /** the proxy's stop, when one runs */
  stop: (() => Promise<void>) | undefined
}

/**
 * The local stack's chain endpoints. RPC_FAULT_PROXY=1: two endpoints for web and workers
 * (RPC_URLS), the fault proxy in front of the chain as rpc 1 and the chain itself as rpc 2;
 * `kill -USR2 <npm start's pid>` kills rpc 1 (every connection dropped) and brings it back, so
 * the failover can be watched on /admin. Otherwise RPC_FAULT_* alone: the workers reach the
 * chain through the fault proxy (the web and the tools do not). Neither: the chain itself.
 */
export async function startStackRpc({ rpcUrl, given, log }: StartStackRpcParameters): Promise<StartStackRpcReturnType> {
  const rpcFaults = rpcFaultsFromEnv(given)
  if (given.RPC_FAULT_PROXY === '1') {
    const proxy = await startRpcFaultProxy({ target: rpcUrl, faults: rpcFaults ?? {} })
    process.on('SIGUSR2', () => {
      const down = !proxy.faults().down
      proxy.setFaults({ ...proxy.faults(), down })
      log(`rpc 1 (the fault proxy at ${proxy.url}) is ${down ? 'dead' : 'back'} (kill -USR2 ${process.pid} to toggle)`)
    })
    log(`RPC_URLS: rpc 1 ${proxy.url} (fault proxy), rpc 2 ${rpcUrl}; kill -USR2 ${process.pid} kills rpc 1 and back`)
    return { workerRpcUrl: rpcUrl, env: { RPC_URLS: `${proxy.url},${rpcUrl}` }, stop: proxy.stop }
  }
  if (rpcFaults) {
    const proxy = await startRpcFaultProxy({ target: rpcUrl, faults: rpcFaults })
    log(`RPC fault proxy for the workers at ${proxy.url}: ${JSON.stringify(rpcFaults)}`)
    return { workerRpcUrl: proxy.url, env: {}, stop: proxy.stop }
  }
  return { workerRpcUrl: rpcUrl, env: {}, stop: undefined }
}
