import type { RpcEndpointHealth } from './createRpcEndpoints'

/** An endpoint behind the best at a round: the head it had and since when it has been behind at that head. */
export type RpcHeadStall = { head: bigint; since: number }

export type JudgeRpcHeadsParameters = {
  /** one probe per endpoint: its head, or the reason it did not answer */
  answers: readonly { head: bigint | null; latencyMs: number | null; error: string | null }[]
  /** an endpoint whose head is behind the best by more than this is down */
  maxLagBlocks: number
  /** each endpoint's stall from the round before (what this function returned then); none at the first round */
  stalls?: readonly (RpcHeadStall | null)[]
  /** the round's time (ms) */
  now?: number
  /** an endpoint behind the best whose head has not moved for this long is down, however few blocks it lags */
  stalledAfterMs?: number
}

export type JudgeRpcHeadsReturnType = {
  health: RpcEndpointHealth[]
  /** each endpoint's stall, to pass to the next round: null while it is level with the best or silent */
  stalls: (RpcHeadStall | null)[]
}

/**
 * One probe round judged: an endpoint is healthy when it answered, its head is at most
 * maxLagBlocks behind the best head of the round, and it is not stalled: behind the best at the
 * same head since stalledAfterMs ago (a node that stopped following: the others made a block
 * it never got). A node that lags serves stale reads (no receipt for a mined transaction, an old
 * nonce), so it is demoted like a dead one. A node that trails by a block but moves, or that is
 * level with the best, is not stalled; while no endpoint makes a block, none is behind and a
 * stopped node serves the same head as the others.
 *
 * @example
 * judgeRpcHeads({ answers: [{ head: 90n, ... }, { head: 100n, ... }], maxLagBlocks: 3 }).health[0].healthy // false
 */
export function judgeRpcHeads({
  answers,
  maxLagBlocks,
  stalls = [],
  now = Date.now(),
  stalledAfterMs = Number.POSITIVE_INFINITY,
}: JudgeRpcHeadsParameters): JudgeRpcHeadsReturnType {
  let best = -1n
  for (const { head } of answers) if (head !== null && head > best) best = head
  const judged = answers.map((a, i) => {
    if (a.head === null)
      return {
        health: { healthy: false, head: null, latencyMs: null, lastError: a.error ?? 'no answer' },
        stall: null,
      }
    const behind = best - a.head
    const before = stalls[i]
    const stall = behind > 0n ? (before && before.head === a.head ? before : { head: a.head, since: now }) : null
    const lagging = behind > BigInt(maxLagBlocks)
    const stalled = !lagging && stall !== null && now - stall.since >= stalledAfterMs
    const lastError = lagging
      ? `head ${a.head} is ${behind} blocks behind the best (${best})`
      : stalled
        ? `head ${a.head} has not moved for ${now - (stall?.since ?? now)} ms while the best is at ${best}`
        : null
    return { health: { healthy: !lagging && !stalled, head: a.head, latencyMs: a.latencyMs, lastError }, stall }
  })
  return { health: judged.map((j) => j.health), stalls: judged.map((j) => j.stall) }
}
