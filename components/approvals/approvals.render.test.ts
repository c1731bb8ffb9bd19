import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { OrderDecision } from '@/components/mint/OrderDecision'
import type { OrderAwaitingApproval, OrdersAwaitingApproval as Queue } from '@/lib/web/approvals/OrdersAwaitingApproval'
import { ApprovalQueue } from './ApprovalQueue'

// Server-render smoke tests of four eyes in the UI: the approvals queue and the decision
// on the order page.
vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }) }))

function render(element: ReactElement): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return renderToString(createElement(QueryClientProvider, { client }, element))
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
  it('shows what, for whom, backed by which bars, requested by whom and when, with approve and reject', () => {
    const html = render(createElement(ApprovalQueue, { queue: { items: [item], more: 0 } satisfies Queue }))
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
    expect(html).toContain('>Approve<')
    expect(html).toContain('>Reject<')
    expect(html).toContain(`/mints/${item.orderId}`)
    expect(html).not.toContain('You requested this')
  })

  it("the viewer's own request is shown but not actionable", () => {
    const html = render(createElement(ApprovalQueue, { queue: { items: [{ ...item, mine: true }], more: 0 } }))
    expect(html).toContain('802.168')
    expect(html).toContain('You requested this: a second person must approve or reject it.')
    expect(html).not.toContain('>Approve<')
    expect(html).not.toContain('>Reject<')
  })

  it('an empty queue says so; a long one says how many more wait', () => {
    expect(render(createElement(ApprovalQueue, { queue: { items: [], more: 0 } }))).toContain(
      'No order is waiting for approval.',
    )
    expect(render(createElement(ApprovalQueue, { queue: { items: [item], more: 3 } }))).toContain('3 more waiting')
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
