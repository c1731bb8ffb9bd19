import { afterEach, describe, expect, it, vi } from 'vitest'
import { startPoolPoll } from './startPoolPoll'

afterEach(() => {
  vi.useRealTimers()
})

describe('startPoolPoll', () => {
  it('wakes one slot per period, and none once stopped', () => {
    vi.useFakeTimers()
    const wakeOne = vi.fn()
    const poll = startPoolPoll({ wakeOne, everyMs: 1_000 })
    vi.advanceTimersByTime(3_000)
    expect(wakeOne).toHaveBeenCalledTimes(3)
    poll.stop()
    vi.advanceTimersByTime(5_000)
    expect(wakeOne).toHaveBeenCalledTimes(3)
  })
})
