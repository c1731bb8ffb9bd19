import { describe, expect, it } from 'vitest'
import { workerDeathCause } from './knownIssues'

const line = (msg: string) => JSON.stringify({ level: 'warn', msg })

describe('workerDeathCause', () => {
  it("knows graphile-worker's runner stopping when its pool's Postgres shuts down", () => {
    const log = [
      line('Runner stopping (reason: worker pool exited with error: error: the database system is shutting down)'),
      JSON.stringify({ level: 'fatal', err: { message: 'graphile-worker stopped on its own' } }),
    ].join('\n')
    expect(workerDeathCause(log)).toBe('database lost while a job finished (by design)')
  })

  it('calls a runner that stopped for another reason unknown', () => {
    const log = [
      line('Runner stopping (reason: worker pool exited with error: error: relation "x" does not exist)'),
      line('graphile-worker stopped on its own'),
    ].join('\n')
    expect(workerDeathCause(log)).toBeUndefined()
  })
})
