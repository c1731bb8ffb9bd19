import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { Job } from '@/components/jobs/jobsApi'
import { MintOrderDetail } from '@/components/mint/MintOrderDetail'
import type { OrderViewer } from '@/components/mint/OrderActions'
import { OrderDecision } from '@/components/mint/OrderDecision'
import { orderJobsQueryKey } from '@/components/mint/OrderJobActions'
import { OrderOutcome } from '@/components/mint/OrderOutcome'
import type { KeySignerKind } from '@/components/wallet/keySigners'
import type { OrderAwaitingApproval, OrdersAwaitingApproval as Queue } from '@/lib/web/approvals/OrdersAwaitingApproval'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { type ApiMintApproval, mintApprovalSchema } from '@/lib/web/signing/apiTypes'
import { mintApprovalAnswer } from '@/tests/fixtures/mintApprovalAnswer'
import { ApprovalQueue } from './ApprovalQueue'
import { mintApprovalQueryKey } from './approvalsApi'

// Server-render smoke tests of four eyes in the UI: the approvals queue and the decision
// on the order page.
vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }) }))

/** Renders on the server; `approvals` are in the query cache as GET .../approval answered them. */
function render(
  element: ReactElement,
  approvals: Record<string, ApiMintApproval> = {},
  seed: (client: QueryClient) => void = () => {},
): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  for (const [orderId, approval] of Object.entries(approvals))
    client.setQueryData(mintApprovalQueryKey(orderId), approval)
  seed(client)
  return renderToString(createElement(QueryClientProvider, { client }, element))
}

const approval = mintApprovalSchema.parse(mintApprovalAnswer)

function queueOf(
  queue: Queue,
  { viewerEmail = 'approver@mintdesk.local', signers = ['wallet'] as readonly KeySignerKind[] } = {},
) {
  return createElement(ApprovalQueue, { queue, viewerEmail, signers })
}

const item: OrderAwaitingApproval = {
  orderId: '0b9f3c1e-0000-4000-8000-000000000001',
  amount: '802.168',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  vault: 'LDN-1',
  receiptRef: 'VR-2026-000123',
  documentSha256: 'a'.repeat(64),
  requestedBy: 'staff@mintdesk.local',
  createdAt: '2026-01-31T14:05:09.123Z',
  mine: false,
  bars: [
    {
      serial: 'AB123456',
      refiner: 'Valcambi SA',
      year: 2025,
      grossOz: '401.125',
      fineness: '999.9',
      fineOz: '401.084',
    },
    {
      serial: 'AB123457',
      refiner: 'Valcambi SA',
      year: 2025,
      grossOz: '401.125',
      fineness: '999.9',
      fineOz: '401.084',
    },
  ],
}

describe('the approvals queue', () => {
  it('shows what, for whom, backed by which bars, requested by whom and when, with sign-and-approve and reject', () => {
    const html = render(queueOf({ items: [item], more: 0 }), { [item.orderId]: approval })
    for (const text of [
      '802.168',
      item.to,
      'AB123456',
      'AB123457',
      '401.084',
      'Valcambi SA',
      'staff@mintdesk.local',
      '2026-01-31 14:05:09 UTC',
      'VR-2026-000123',
    ]) {
      expect(html).toContain(text)
    }
    expect(html).toContain('>Sign and approve<')
    expect(html).toContain('>Reject<')
    expect(html).toContain(`/mints/${item.orderId}`)
    expect(html).not.toContain('You requested this')
    // production: the wallet only, no dev signer
    expect(html).not.toContain('Sign with the dev key')
  })

  it('shows the intent being signed: recipient, amount, bars hash, deadline, chain, contract, who signed of how many', () => {
    const html = render(queueOf({ items: [item], more: 0 }), { [item.orderId]: approval })
    const { message, domain } = approval.typedData
    for (const text of [
      'What you sign',
      message.to,
      '802.168',
      message.barsHash,
      '2030-03-17 17:46:40 UTC',
      '31337',
      String(domain.verifyingContract),
      '1 of 2 signatures',
      'approver2@mintdesk.local',
      '0x71bE63f3384f5fb98995898A86B02Fb2426c5788',
    ]) {
      expect(html).toContain(text)
    }
    expect(html).not.toContain('Do not sign')
  })

  it('in dev mode the dev signer is offered beside the wallet', () => {
    const html = render(queueOf({ items: [item], more: 0 }, { signers: ['wallet', 'dev'] }), {
      [item.orderId]: approval,
    })
    expect(html).toContain('>Sign and approve<')
    expect(html).toContain('>Sign with the dev key<')
  })

  it('an intent whose recipient or amount differs from the order: "do not sign", and no signing offered', () => {
    const other = {
      ...approval,
      typedData: {
        ...approval.typedData,
        message: { ...approval.typedData.message, to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', amount: '1' },
      },
    }
    const html = render(queueOf({ items: [item], more: 0 }), { [item.orderId]: other })
    expect(html).toContain('Do not sign: the intent does not match the order')
    expect(html).toContain('recipient 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC is not the order')
    expect(html).toContain('amount is not the order')
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sign and approve</)
  })

  it('a viewer who signed already is not asked again', () => {
    const html = render(queueOf({ items: [item], more: 0 }, { viewerEmail: 'approver2@mintdesk.local' }), {
      [item.orderId]: approval,
    })
    expect(html).toContain('You signed this: it waits for another approver.')
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sign and approve</)
  })

  it('before the intent is loaded, it says so and signing waits', () => {
    const html = render(queueOf({ items: [item], more: 0 }))
    expect(html).toContain('Loading the intent to sign')
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sign and approve</)
  })

  it("the viewer's own request is shown but not actionable", () => {
    const html = render(queueOf({ items: [{ ...item, mine: true }], more: 0 }, { signers: ['wallet', 'dev'] }))
    expect(html).toContain('802.168')
    expect(html).toContain('You requested this: a second person must approve or reject it.')
    expect(html).not.toContain('Sign and approve')
    expect(html).not.toContain('Sign with the dev key')
    expect(html).not.toContain('>Reject<')
  })

  it('an empty queue says so; a long one says how many more wait', () => {
    expect(render(queueOf({ items: [], more: 0 }))).toContain('No order is waiting for approval.')
    expect(render(queueOf({ items: [item], more: 3 }))).toContain('3 more waiting')
  })
})

describe('the decision on the order page', () => {
  it('awaiting, approved (by whom, when), rejected (its outcome: by whom, when, why), or nothing', () => {
    expect(render(createElement(OrderDecision, { order: { status: 'awaiting_approval', decision: null } }))).toContain(
      'Awaiting approval',
    )
    const approved = render(
      createElement(OrderDecision, {
        order: {
          status: 'pending',
          decision: {
            outcome: 'approved',
            by: 'approver@mintdesk.local',
            at: '2026-02-01T09:00:00.000Z',
            reason: null,
          },
        },
      }),
    )
    expect(approved).toContain('Approved by <span class="font-medium">approver@mintdesk.local</span>')
    expect(approved).toContain('2026-02-01 09:00:00 UTC')
    // a rejection is the order's outcome, said by OrderOutcome (who, when, why), the reason as text, never markup
    const rejected = render(
      createElement(OrderOutcome, {
        order: {
          decision: {
            outcome: 'rejected',
            by: 'admin@mintdesk.local',
            at: '2026-02-01T09:00:00.000Z',
            reason: '<b>receipt</b> unreadable',
          },
          outcome: {
            status: 'rejected',
            reason: 'rejected',
            lastError: null,
            text: 'The second person (an approver or an admin) rejected it.',
            by: 'admin@mintdesk.local',
            at: '2026-02-01T09:00:00.000Z',
            note: '<b>receipt</b> unreadable',
          },
        },
      }),
    )
    expect(rejected).toContain('Rejected')
    expect(rejected).toContain('admin@mintdesk.local')
    expect(rejected).toContain('&lt;b&gt;receipt&lt;/b&gt; unreadable')
    expect(render(createElement(OrderDecision, { order: { status: 'confirmed', decision: null } }))).toBe('')
  })
})

describe('the order page offers its viewer the actions they may take', () => {
  const awaiting: ApiMintOrder = {
    orderId: item.orderId,
    status: 'awaiting_approval',
    to: item.to,
    amount: item.amount,
    requestedBy: item.requestedBy,
    createdAt: item.createdAt,
    decision: null,
    outcome: null,
    tx: null,
    vaultProof: { vault: 'LDN-1', receiptRef: item.receiptRef, documentSha256: item.documentSha256, bars: item.bars },
    timeline: [],
  }
  const viewer = (email: string, role: OrderViewer['role']): OrderViewer => ({
    email,
    role,
    signers: ['wallet', 'dev'],
  })
  const page = (order: ApiMintOrder, v: OrderViewer, jobs?: Job[]) =>
    render(createElement(MintOrderDetail, { initialOrder: order, viewer: v }), { [order.orderId]: approval }, (c) => {
      if (jobs) c.setQueryData(orderJobsQueryKey(order.orderId, order.status), { items: jobs, nextCursor: null })
    })

  it("an approver gets the approvals page's signing and reject on an order awaiting approval", () => {
    const html = page(awaiting, viewer('approver@mintdesk.local', 'approver'))
    expect(html).toContain('Your decision')
    expect(html).toContain('What you sign')
    expect(html).toContain('aria-label="Sign and approve the mint of 802.168 oz to 0x7099…79C8"')
    expect(html).toContain('>Sign with the dev key<')
    expect(html).toContain('aria-label="Reject the mint of 802.168 oz to 0x7099…79C8"')
  })

  it('an admin decides too; their own request is not theirs to decide; staff and auditors are offered nothing', () => {
    expect(page(awaiting, viewer('admin@mintdesk.local', 'admin'))).toContain('>Sign and approve<')
    const own = page(awaiting, viewer(item.requestedBy, 'approver'))
    expect(own).toContain('You requested this: a second person must approve or reject it.')
    expect(own).not.toContain('>Sign and approve<')
    for (const v of [viewer('staff@mintdesk.local', 'staff'), viewer('auditor@mintdesk.local', 'auditor')]) {
      const html = page(awaiting, v)
      expect(html).not.toContain('Your decision')
      expect(html).not.toContain('>Reject<')
    }
    // once decided, nothing is left to sign
    expect(page({ ...awaiting, status: 'pending' }, viewer('approver@mintdesk.local', 'approver'))).not.toContain(
      'Your decision',
    )
  })

  it('an admin retries or cancels the jobs whose state allows it; a running one and a finished one get no button', () => {
    const job = (id: string, state: Job['state']): Job => ({
      id,
      task: 'mint_send',
      state,
      attempts: 5,
      maxAttempts: 5,
      lastError: 'Error: boom',
      orderId: item.orderId,
      runAt: null,
      lockedAt: null,
      lockedBy: null,
      createdAt: new Date('2026-01-31T14:05:09.123Z'),
      updatedAt: new Date('2026-01-31T14:05:09.123Z'),
      finishedAt: null,
      order: null,
    })
    const failed = { ...awaiting, status: 'failed' as const }
    const jobs = [job('41', 'dead'), job('40', 'done'), job('39', 'running')]
    const html = page(failed, viewer('admin@mintdesk.local', 'admin'), jobs)
    expect(html).toContain('Jobs you can act on')
    expect(html).toContain('aria-label="Retry job 41"')
    expect(html).toContain('aria-label="Cancel job 41"')
    expect(html).toContain('href="/admin/jobs/41"')
    expect(html).not.toContain('Job #40')
    expect(html).not.toContain('Job #39')
    // nobody but an admin is offered them
    expect(page(failed, viewer('approver@mintdesk.local', 'approver'), jobs)).not.toContain('Retry job')
    expect(page(failed, viewer('auditor@mintdesk.local', 'auditor'), jobs)).not.toContain('Retry job')
    // nothing to act on: no card
    expect(page(failed, viewer('admin@mintdesk.local', 'admin'), [job('40', 'done')])).not.toContain(
      'Jobs you can act on',
    )
  })
})
