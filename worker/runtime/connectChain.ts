import { createChainClient } from '@/lib/chain/createChainClient'
import { WorkerStartError } from '@/lib/errors/jobs'
import { sleep } from '@/lib/time/sleep'
import type { WorkerLogger } from './logger'

export type ConnectChainParameters = {
  rpcUrls: readonly string[]
  /** CHAIN_ID when set: every endpoint that answers must be on it */
  expected: number | undefined
  log: WorkerLogger
}

/**
 * Waits for a node (it may start after us), checks the chain id of every endpoint that
 * answers: one on another chain is a start error, one not answering yet is not (a dead
 * provider must not keep the desk down when another answers).
 */
export async function connectChain({ rpcUrls, expected, log }: ConnectChainParameters): Promise<number> {
  const probes = rpcUrls.map((rpcUrl) =>
    createChainClient({ rpcUrl, chainId: expected ?? 1, pollingMs: 1_000, timeoutMs: 5_000 }),
  )
  for (let attempt = 1; ; attempt++) {
    try {
      const answers = await Promise.allSettled(probes.map((p) => p.getChainId()))
      const ids = answers.flatMap((a, i) => (a.status === 'fulfilled' ? [{ id: a.value, n: i + 1 }] : []))
      const first = answers.find((a) => a.status === 'rejected')
      if (ids.length === 0) throw first?.reason ?? new Error('no endpoint answered')
      const want = expected ?? ids[0].id
      const wrong = ids.find((x) => x.id !== want)
      if (wrong)
        throw new WorkerStartError(
          `the node at ${rpcUrls.length > 1 ? `RPC_URLS entry ${wrong.n}` : 'RPC_URL'} is chain ${wrong.id}, ${expected !== undefined ? 'CHAIN_ID says' : 'another endpoint is'} ${want}`,
        )
      if (ids.length < rpcUrls.length)
        log.warn({ answered: ids.length, endpoints: rpcUrls.length }, 'not every chain endpoint answers yet')
      return want
    } catch (error) {
      if (error instanceof WorkerStartError || attempt >= 30) throw error
      log.warn({ err: error, attempt }, 'chain node not reachable yet')
      await sleep({ ms: 1_000 })
    }
  }
}
