import { randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobRecords } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/**
 * Migration 0020 renamed mint_confirm to order_confirm and mint_confirmer to signer_confirm;
 * during a deploy's roll, workers of the previous release still add jobs under the old
 * names. Today's worker runs them as today's tasks (TASKS_RENAMED), so none is stranded.
 */
describe('jobs queued under the old task names', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess | undefined

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await chain?.stop()
    await t?.drop()
  })

  it('run as order_confirm and signer_confirm', async () => {
    worker = startWorkerProcess({ name: 'renamed', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started', 30_000)
    const signer = chain.signerAddresses[0]?.toLowerCase()
    const add = async (task: string, key: string, payload: object) => {
      const [job] = await t.sql<{ id: string }[]>`
        select id::text from graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json, job_key => ${key}, max_attempts => 1)`
      return BigInt(job?.id ?? '0')
    }
    // the signer has nothing in flight: its confirmer makes one pass and ends; the order does not exist: a dead letter
    const confirmer = await add('mint_confirmer', `mint_confirmer:${signer}`, { signer })
    const orderId = randomUUID()
    const alone = await add('mint_confirm', `mint_confirm:${orderId}`, { orderId })

    const records = () =>
      t.db
        .select({ jobId: jobRecords.jobId, task: jobRecords.task, state: jobRecords.state })
        .from(jobRecords)
        .where(inArray(jobRecords.jobId, [confirmer, alone]))
    await waitFor(async () => (await records()).filter((r) => r.state === 'done' || r.state === 'dead').length === 2, {
      timeoutMs: 30_000,
      what: `both old-named jobs finished (log: ${worker.logFile})`,
    })
    expect((await records()).sort((a, b) => Number(a.jobId - b.jobId))).toEqual([
      { jobId: confirmer, task: TASK.signerConfirm, state: 'done' },
      { jobId: alone, task: TASK.orderConfirm, state: 'dead' },
    ])
    const [deadRow] = await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, alone))
    expect(deadRow?.lastError).toContain(`order ${orderId} does not exist`)
  })
})
