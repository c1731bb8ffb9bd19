import { describe, expect, it } from 'vitest'
import { sleep } from './sleep'

describe('sleep', () => {
  it('resolves after its wait when nothing aborts it', async () => {
    await expect(sleep({ ms: 5 })).resolves.toBeUndefined()
    await expect(sleep({ ms: 5, signal: new AbortController().signal })).resolves.toBeUndefined()
  })

  it("rejects when its signal aborts, with the signal's Error, or an Error when the reason is none", async () => {
    const stop = new AbortController()
    const waiting = sleep({ ms: 60_000, signal: stop.signal })
    const why = new Error('shutting down')
    stop.abort(why)
    await expect(waiting).rejects.toBe(why)
    const other = new AbortController()
    other.abort('a string')
    await expect(sleep({ ms: 60_000, signal: other.signal })).rejects.toThrow('aborted')
  })

  it('an unref wait does not keep the process alive; a plain one does', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    const stop = new AbortController()
    const held = sleep({ ms: 60_000, signal: stop.signal }).catch(() => {})
    expect(timers()).toBe(before + 1)
    const loose = sleep({ ms: 60_000, signal: stop.signal, unref: true }).catch(() => {})
    expect(timers()).toBe(before + 1)
    stop.abort()
    await Promise.all([held, loose])
  })
})
