import { describe, expect, it } from 'vitest'
import { judgeRpcHeads } from './judgeRpcHeads'

const answer = (head: bigint | null, error: string | null = null) => ({
  head,
  latencyMs: head === null ? null : 5,
  error,
})

describe('judgeRpcHeads', () => {
  it('keeps endpoints within maxLagBlocks of the best head, demotes one further behind with its lag as the reason', () => {
    const judged = judgeRpcHeads({ answers: [answer(90n), answer(100n), answer(97n)], maxLagBlocks: 3 })
    expect(judged.map((h) => h.healthy)).toEqual([false, true, true])
    expect(judged[0]).toMatchObject({ head: 90n, latencyMs: 5 })
    expect(judged[0].lastError).toMatch(/10 blocks behind the best \(100\)/)
    expect(judged[2].lastError).toBeNull()
  })

  it('an endpoint that did not answer is down with its error; the others are judged among themselves', () => {
    const judged = judgeRpcHeads({
      answers: [answer(null, 'HttpRequestError: fetch failed'), answer(7n)],
      maxLagBlocks: 3,
    })
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
      judgeRpcHeads({ answers: [answer(null, 'a'), answer(null, 'b')], maxLagBlocks: 3 }).some((h) => h.healthy),
    ).toBe(false)
  })
})
