import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertUser } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { confirmTestOrder } from './notificationFixtures'
import { type MailWorker, startMailWorker } from './startMailWorker'

// Emails share lanes (graphile-worker named queues, each run one job at a time; with one lane,
// every address's). A lane's job frees the queue only when its batched completion commits,
// after the worker has already looked for its next job; the worker then wakes itself for the
// lane's next job. With a poll far longer than this test, every email after the first one
// would otherwise wait for it. Six requesters, so six emails (one requester's events, dispatched
// together, would make one digest).
describe('a lane of emails runs through without waiting for the poll', () => {
  let m: MailWorker

  beforeAll(async () => {
    m = await startMailWorker({ name: 'lane-wake', env: { WORKER_POLL_MS: '120000', NOTIFY_CONCURRENCY: '1' } })
  })
  afterAll(async () => {
    await m?.stop()
  })

  it('six confirmations of six requesters on one lane: six emails, one after the other, none left for the next poll', async () => {
    for (let i = 0; i < 6; i++) {
      const requester = await insertUser(m.t.db, 'staff')
      await confirmTestOrder(m.t.db, { requestedBy: requester.id })
    }
    const count = () => readdirSync(m.sink.mailDir).length
    const sent = await waitFor(async () => (count() >= 6 ? count() : undefined), {
      timeoutMs: 30_000,
      what: `six emails in ${m.sink.mailDir} (log ${m.worker.logFile})`,
    })
    expect(sent).toBe(6)
  }, 60_000)
})
