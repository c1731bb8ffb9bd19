import { Writable } from 'node:stream'
import type { JobHelpers } from 'graphile-worker'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HOUSEKEEPING_TASKS, TASK } from '@/lib/jobs/jobKeys'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import type { WorkerContext } from './context'
import { runTask } from './runTask'

type Line = { level: number; msg: string; task?: string }

/** a pino logger at debug whose lines land in `lines` */
function capturingLogger() {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line)
      done()
    },
  })
  return { log: pino({ level: 'debug' }, stream), lines }
}

const DEBUG = 20
const INFO = 30

describe('runTask: the log level of a job start and success', () => {
  let t: TestDatabase
  let nextJobId = 1

  beforeAll(async () => {
    t = await createTestDatabase()
  })
  afterAll(async () => {
    await t.drop()
  })

  async function run(task: string, outcome: 'ok' | 'fail'): Promise<Line[]> {
    const { log, lines } = capturingLogger()
    // runAttempt reads only the database, the logger and the worker id of the context
    const ctx = { db: t.db, log, workerId: () => 'test-worker' } as unknown as WorkerContext
    const handler = runTask(ctx, {
      name: task,
      payload: z.object({}),
      run: async () => {
        if (outcome === 'fail') throw new Error('boom')
      },
    })
    // the job fields runAttempt reads
    const helpers = {
      job: { id: String(nextJobId++), attempts: 1, max_attempts: 5, run_at: new Date() },
    } as unknown as JobHelpers
    // a failing attempt rethrows (graphile-worker records it): the lines are what this test reads
    await Promise.resolve(handler({}, helpers)).catch(() => undefined)
    return lines.filter((l) => l.msg.startsWith('job '))
  }

  it('a housekeeping task logs its start and success at debug', async () => {
    for (const task of HOUSEKEEPING_TASKS) {
      const lines = await run(task, 'ok')
      expect(lines.map((l) => [l.msg, l.level])).toEqual([
        ['job started', DEBUG],
        ['job succeeded', DEBUG],
      ])
    }
  })

  it('an order task logs them at info', async () => {
    const lines = await run(TASK.mintSend, 'ok')
    expect(lines.map((l) => [l.msg, l.level])).toEqual([
      ['job started', INFO],
      ['job succeeded', INFO],
    ])
  })

  it("a housekeeping task's failure is still a warning", async () => {
    const lines = await run(TASK.nonceHealth, 'fail')
    expect(lines.map((l) => l.msg)).toEqual(['job started', 'job failed, will retry'])
    expect(lines[1]?.level).toBeGreaterThan(INFO)
  })
})
