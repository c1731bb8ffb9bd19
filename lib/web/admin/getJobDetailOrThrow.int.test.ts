import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addMintJob, completeJob, setJobState } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { getJobDetailOrThrow } from './getJobDetailOrThrow'

describe('getJobDetailOrThrow', () => {
  let t: TestDatabase
  let order: { id: string; to: string }
  let send: bigint
  let confirm: bigint
  let hash: string | null
  let staffEmail: string

  beforeAll(async () => {
    t = await createTestDatabase()
    const staff = await insertUser(t.db)
    staffEmail = staff.email
    const signer = await insertSigner(t.db)
    order = await insertOrder(t.db, { requestedBy: staff.id, status: 'submitted', barsFineOz: ['401.084', '400.000'] })
    send = await addMintJob(t.db, { orderId: order.id })
    await recordJobEvent(t.db, {
      event: 'started',
      task: 'mint_send',
      jobId: send,
      orderId: order.id,
      attempt: 1,
      actor: 'worker-1',
    })
    await recordJobEvent(t.db, {
      event: 'failed',
      task: 'mint_send',
      jobId: send,
      orderId: order.id,
      attempt: 1,
      durationMs: 120,
      error:
        'HttpRequestError: HTTP request failed.\n    at fetch (node:internal)\n    at send (worker/tasks/mintSend.ts:40:3)',
    })
    hash = await reserveNonce(t.db, { signer, nonce: 7n, orderId: order.id, signed: true })
    await recordJobEvent(t.db, {
      event: 'broadcast',
      task: 'mint_send',
      jobId: send,
      orderId: order.id,
      attempt: 2,
      detail: `tx ${hash}`,
    })
    await completeJob(t.db, send)
    confirm = await addMintJob(t.db, { orderId: order.id, task: 'order_confirm' })
    await setJobState(t.db, confirm, 'dead', { error: 'Error: not mined after 10 checks' })
  })
  afterAll(async () => {
    await t.drop()
  })

  it('tells the whole story of the order: both jobs on one timeline, errors with stacks', async () => {
    const d = await getJobDetailOrThrow(t.db, { jobId: send })
    expect(d.job).toMatchObject({
      id: send.toString(),
      task: 'mint_send',
      state: 'done',
      live: false,
      payload: { orderId: order.id },
    })
    expect(d.timeline.map((e) => [e.event, e.jobId])).toEqual([
      ['enqueued', send.toString()],
      ['started', send.toString()],
      ['failed', send.toString()],
      ['broadcast', send.toString()],
      ['enqueued', confirm.toString()],
    ])
    const failed = d.timeline.find((e) => e.event === 'failed')!
    expect(failed.error).toEqual({
      message: 'HttpRequestError: HTTP request failed.',
      stack: 'at fetch (node:internal)\n    at send (worker/tasks/mintSend.ts:40:3)',
    })
    expect(failed.durationMs).toBe(120)
    expect(d.errors).toHaveLength(1)
    expect(d.relatedJobs.map((j) => [j.task, j.state])).toEqual([
      ['order_confirm', 'dead'],
      ['mint_send', 'done'],
    ])
  })

  it('gives the order, its vault proof, its transactions with nonce and fees', async () => {
    const d = await getJobDetailOrThrow(t.db, { jobId: confirm })
    expect(d.job).toMatchObject({
      state: 'dead',
      attempts: 5,
      maxAttempts: 5,
      live: true,
      key: `order_confirm:${order.id}`,
    })
    expect(d.errors.map((e) => e.message)).toEqual(['Error: not mined after 10 checks'])
    expect(d.order).toMatchObject({
      orderId: order.id,
      status: 'submitted',
      amount: '801.084',
      requestedBy: staffEmail,
      nonce: 7,
      vaultProof: {
        vault: 'LDN-1',
        bars: [{ fineOz: '401.084', fineness: '999.9', year: 2025 }, { fineOz: '400.000' }],
      },
    })
    expect(d.transactions).toEqual([
      expect.objectContaining({
        hash,
        nonce: 7,
        kind: 'mint',
        maxFeePerGas: '2000000000',
        maxPriorityFeePerGas: '1000000000',
        gasLimit: '120000',
        minedBlock: null,
      }),
    ])
    expect(d.nonces).toEqual([expect.objectContaining({ nonce: 7, state: 'signed', use: 'mint' })])
  })

  it('404s an unknown job', async () => {
    await expect(getJobDetailOrThrow(t.db, { jobId: 123_456n })).rejects.toMatchObject({ code: 'not_found' })
  })
})
