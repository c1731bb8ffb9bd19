import type { RpcEndpointHealth } from './createRpcEndpoints'

export type JudgeRpcHeadsParameters = {
  /** one probe per endpoint: its head, or the reason it did not answer */
  answers: readonly { head: bigint | null; latencyMs: number | null; error: string | null }[]
  /** an endpoint whose head is behind the best by more than this is down */
  maxLagBlocks: number
}

/**
 * One probe round judged: an endpoint is healthy when it answered and its head is at most
 * maxLagBlocks behind the best head of the round. A node that lags serves stale reads (no
 * receipt for a mined transaction, an old nonce), so it is demoted like a dead one.
 *
 * @example judgeRpcHeads({ answers: [{ head: 90n, ... }, { head: 100n, ... }], maxLagBlocks: 3 })[0].healthy // false
 */
export function judgeRpcHeads({ answers, maxLagBlocks }: JudgeRpcHeadsParameters): RpcEndpointHealth[] {
  let best = -1n
  for (const { head } of answers) if (head !== null && head > best) best = head
  return answers.map((a) => {
    if (a.head === null) return { healthy: false, head: null, latencyMs: null, lastError: a.error ?? 'no answer' }
    const behind = best - a.head
    const lagging = behind > BigInt(maxLagBlocks)
    return {
      healthy: !lagging,
      head: a.head,
      latencyMs: a.latencyMs,
      lastError: lagging ? `head ${a.head} is ${behind} blocks behind the best (${best})` : null,
    }
  })
}
