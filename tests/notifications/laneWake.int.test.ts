import { readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpSink, type SmtpSink } from '@/scripts/stack/smtpSink'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { confirmTestOrder } from './notificationFixtures'

// The emails of one address share a lane (a graphile-worker named queue, run one at a time).
// A lane's job frees the queue only when its batched completion commits, after the worker has
// already looked for its next job; the worker then wakes itself for the lane's next job. With a
// poll far longer than this test, every email after the first one would otherwise wait for it.
describe('a lane of emails runs through without waiting for the poll', () => {
  let t: TestDatabase
  let u: TestUsers
  let chain: ChainFixture
  let sink: SmtpSink
  let worker: WorkerProcess

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
    sink = await startSmtpSink({ mailDir: path.join(os.tmpdir(), `mintdesk-lane-${Date.now()}-${process.pid}`) })
    worker = startWorkerProcess({
      name: 'lane-wake',
      env: workerEnv({ databaseUrl: t.url, chain, env: { SMTP_URL: sink.url, WORKER_POLL_MS: '120000' } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await sink?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('six confirmations of one requester: six emails, one after the other, none left for the next poll', async () => {
    for (let i = 0; i < 6; i++) await confirmTestOrder(t.db, { requestedBy: u.staff.id })
    const sent = await waitFor(async () => (readdirSync(sink.mailDir).length >= 6 ? readdirSync(sink.mailDir).length : undefined), {
      timeoutMs: 30_000,
      what: `six emails in ${sink.mailDir} (log ${worker.logFile})`,
    })
    expect(sent).toBe(6)
  }, 60_000)
})
