import { describe, expect, it } from 'vitest'
import { judgeRpcHeads } from './judgeRpcHeads'

const answer = (head: bigint | null, error: string | null = null) => ({
  head,
  latencyMs: head === null ? null : 5,
  error,
})

describe('judgeRpcHeads', () => {
  it('keeps endpoints within maxLagBlocks of the best head, demotes one further behind with its lag as the reason', () => {
    const judged = judgeRpcHeads({ answers: [answer(90n), answer(100n), answer(97n)], maxLagBlocks: 3 }).health
    expect(judged.map((h) => h.healthy)).toEqual([false, true, true])
    expect(judged[0]).toMatchObject({ head: 90n, latencyMs: 5 })
    expect(judged[0].lastError).toMatch(/10 blocks behind the best \(100\)/)
    expect(judged[2].lastError).toBeNull()
  })

  it('an endpoint that did not answer is down with its error; the others are judged among themselves', () => {
    const judged = judgeRpcHeads({
      answers: [answer(null, 'HttpRequestError: fetch failed'), answer(7n)],
      maxLagBlocks: 3,
    }).health
    expect(judged[0]).toEqual({
      healthy: false,
      head: null,
      latencyMs: null,
      lastError: 'HttpRequestError: fetch failed',
    })
    expect(judged[1].healthy).toBe(true)
  })

  it('none answering: all down', () => {
    expect(
      judgeRpcHeads({ answers: [answer(null, 'a'), answer(null, 'b')], maxLagBlocks: 3 }).health.some((h) => h.healthy),
    ).toBe(false)
  })

  describe('a head that stopped: behind the best and not moving for stalledAfterMs', () => {
    const rounds = (heads: [bigint, bigint][], { stepMs = 1_000, stalledAfterMs = 3_000 } = {}) => {
      let stalls: ReturnType<typeof judgeRpcHeads>['stalls'] = []
      return heads.map(([a, b], i) => {
        const judged = judgeRpcHeads({
          answers: [answer(a), answer(b)],
          maxLagBlocks: 3,
          stalls,
          now: i * stepMs,
          stalledAfterMs,
        })
        stalls = judged.stalls
        return judged.health
      })
    }

    it('is down once it has been behind at the same head that long, within maxLagBlocks; back when it moves level', () => {
      // one block made by the others (an idle chain: a block per transaction), the first node never gets it
      const health = rounds([
        [5n, 5n],
        [5n, 6n],
        [5n, 6n],
        [5n, 6n],
        [5n, 6n],
        [6n, 6n],
      ])
      expect(health.map((h) => h[0].healthy)).toEqual([true, true, true, true, false, true])
      expect(health[4][0].lastError).toMatch(/head 5 has not moved for 3000 ms while the best is at 6/)
      expect(health.every((h) => h[1].healthy)).toBe(true)
    })

    it('a node that trails the best by a block but follows it is not stalled', () => {
      const health = rounds([
        [5n, 6n],
        [6n, 7n],
        [7n, 8n],
        [8n, 9n],
        [9n, 10n],
      ])
      expect(health.every((h) => h[0].healthy && h[1].healthy)).toBe(true)
    })

    it('while no endpoint makes a block, none is behind: a stopped node cannot be told from the others', () => {
      const health = rounds(Array.from({ length: 10 }, () => [5n, 5n] as [bigint, bigint]))
      expect(health.every((h) => h[0].healthy && h[1].healthy)).toBe(true)
    })

    it('without stalledAfterMs (or at the first round) only the lag in blocks counts', () => {
      const judged = judgeRpcHeads({ answers: [answer(5n), answer(6n)], maxLagBlocks: 3 })
      expect(judged.health.map((h) => h.healthy)).toEqual([true, true])
      expect(judged.stalls).toEqual([{ head: 5n, since: expect.any(Number) }, null])
    })
  })
})
