import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { OrderDecision } from '@/components/mint/OrderDecision'
import type { KeySignerKind } from '@/components/wallet/keySigners'
import type { OrderAwaitingApproval, OrdersAwaitingApproval as Queue } from '@/lib/web/approvals/OrdersAwaitingApproval'
import { type ApiMintApproval, mintApprovalSchema } from '@/lib/web/signing/apiTypes'
import { mintApprovalAnswer } from '@/tests/fixtures/mintApprovalAnswer'
import { ApprovalQueue } from './ApprovalQueue'
import { mintApprovalQueryKey } from './approvalsApi'

// Server-render smoke tests of four eyes in the UI: the approvals queue and the decision
// on the order page.
vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }) }))

/** Renders on the server; `approvals` are in the query cache as GET .../approval answered them. */
function render(element: ReactElement, approvals: Record<string, ApiMintApproval> = {}): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  for (const [orderId, approval] of Object.entries(approvals))
    client.setQueryData(mintApprovalQueryKey(orderId), approval)
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
  it('awaiting, approved (by whom, when), rejected (by whom, when, why), or nothing', () => {
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
    const rejected = render(
      createElement(OrderDecision, {
        order: {
          status: 'rejected',
          decision: {
            outcome: 'rejected',
            by: 'admin@mintdesk.local',
            at: '2026-02-01T09:00:00.000Z',
            reason: '<b>receipt</b> unreadable',
          },
        },
      }),
    )
    expect(rejected).toContain('Rejected by')
    expect(rejected).toContain('admin@mintdesk.local')
    // the reason is text, never markup
    expect(rejected).toContain('&lt;b&gt;receipt&lt;/b&gt; unreadable')
    expect(render(createElement(OrderDecision, { order: { status: 'confirmed', decision: null } }))).toBe('')
  })
})
