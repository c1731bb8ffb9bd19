import { describe, expect, it } from 'vitest'
import type { ApiJob, ApiJobDetail } from '@/lib/web/admin/apiTypes'
import { apiJobDetailToJobDetail, apiJobToJob, jobsUrl } from './jobsApi'

const apiJob: ApiJob = {
  id: '17',
  task: 'mint_send',
  state: 'dead',
  attempts: 5,
  maxAttempts: 5,
  lastError: 'Error: boom',
  orderId: '0b9f6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
  runAt: '2026-01-01T10:00:00.000Z',
  lockedAt: null,
  lockedBy: null,
  createdAt: '2026-01-01T09:59:00.000Z',
  updatedAt: '2026-01-01T10:00:05.000Z',
  finishedAt: null,
  order: {
    orderId: '0b9f6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    status: 'failed',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amount: '401.084',
  },
}

describe('API data to app data', () => {
  it('apiJobToJob turns times into Dates and keeps the rest', () => {
    const job = apiJobToJob(apiJob)
    expect(job.runAt).toEqual(new Date('2026-01-01T10:00:00.000Z'))
    expect(job.createdAt.getTime()).toBe(Date.parse(apiJob.createdAt))
    expect(job.lockedAt).toBeNull()
    expect(job.finishedAt).toBeNull()
    expect(job).toMatchObject({ id: '17', state: 'dead', attempts: 5, maxAttempts: 5, order: apiJob.order })
  })

  it('apiJobDetailToJobDetail converts the job, the timeline, the order and the transactions', () => {
    const detail: ApiJobDetail = {
      job: { ...apiJob, payload: { orderId: apiJob.orderId }, key: 'mint_send:x', priority: 0, live: true },
      errors: [{ at: '2026-01-01T10:00:05.000Z', attempt: 5, message: 'Error: boom', stack: 'at x' }],
      timeline: [
        {
          id: '1',
          at: '2026-01-01T09:59:00.000Z',
          event: 'enqueued',
          jobId: '17',
          task: 'mint_send',
          attempt: null,
          detail: null,
          error: null,
          actor: null,
          durationMs: null,
          data: null,
        },
      ],
      order: {
        orderId: apiJob.orderId!,
        status: 'failed',
        to: apiJob.order!.to,
        amount: '401.084',
        requestedBy: 'staff@mintdesk.local',
        createdAt: '2026-01-01T09:59:00.000Z',
        updatedAt: '2026-01-01T10:00:05.000Z',
        submittedAt: null,
        confirmedAt: null,
        failureReason: 'frozen',
        signer: null,
        nonce: null,
        txHash: null,
        blockNumber: null,
        vaultProof: { vault: 'LDN-1', receiptRef: 'VR-1', documentSha256: 'ab', bars: [] },
      },
      transactions: [
        {
          hash: '0xabc',
          kind: 'mint',
          signer: '0x1',
          nonce: 3,
          maxFeePerGas: '2',
          maxPriorityFeePerGas: '1',
          gasLimit: '21000',
          createdAt: '2026-01-01T10:00:00.000Z',
          broadcastAt: null,
          minedBlock: null,
        },
      ],
      nonces: [],
      relatedJobs: [{ id: '17', task: 'mint_send', state: 'dead' }],
    }
    const d = apiJobDetailToJobDetail(detail)
    expect(d.job.live).toBe(true)
    expect(d.job.payload).toEqual({ orderId: apiJob.orderId })
    expect(d.timeline[0]!.at).toBeInstanceOf(Date)
    expect(d.errors[0]!.at).toBeInstanceOf(Date)
    expect(d.order!.createdAt).toBeInstanceOf(Date)
    expect(d.order!.submittedAt).toBeNull()
    expect(d.transactions[0]!.createdAt).toBeInstanceOf(Date)
    expect(d.transactions[0]!.broadcastAt).toBeNull()
  })

  it('jobsUrl leaves out empty filters', () => {
    expect(jobsUrl({})).toBe('/api/admin/jobs')
    expect(jobsUrl({ state: 'dead', task: 'mint_send', q: 'is frozen' }, 'abc', 100)).toBe(
      '/api/admin/jobs?state=dead&task=mint_send&q=is+frozen&cursor=abc&limit=100',
    )
  })
})
