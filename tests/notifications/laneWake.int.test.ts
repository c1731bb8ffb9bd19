import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '@/tests/helpers/waitFor'
import { confirmTestOrder } from './notificationFixtures'
import { type MailWorker, startMailWorker } from './startMailWorker'

// The emails of one address share a lane (a graphile-worker named queue, run one at a time).
// A lane's job frees the queue only when its batched completion commits, after the worker has
// already looked for its next job; the worker then wakes itself for the lane's next job. With a
// poll far longer than this test, every email after the first one would otherwise wait for it.
describe('a lane of emails runs through without waiting for the poll', () => {
  let m: MailWorker

  beforeAll(async () => {
    m = await startMailWorker({ name: 'lane-wake', env: { WORKER_POLL_MS: '120000' } })
  })
  afterAll(async () => {
    await m?.stop()
  })

  it('six confirmations of one requester: six emails, one after the other, none left for the next poll', async () => {
    for (let i = 0; i < 6; i++) await confirmTestOrder(m.t.db, { requestedBy: m.u.staff.id })
    const count = () => readdirSync(m.sink.mailDir).length
    const sent = await waitFor(async () => (count() >= 6 ? count() : undefined), {
      timeoutMs: 30_000,
      what: `six emails in ${m.sink.mailDir} (log ${m.worker.logFile})`,
    })
    expect(sent).toBe(6)
  }, 60_000)
})
