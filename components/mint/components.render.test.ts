import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { MintOrderDetail } from './MintOrderDetail'
import { MintOrderList } from './MintOrderList'
import { MintRequestForm } from './MintRequestForm'

// Server-render smoke tests: the components render their data exactly as strings.
vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }) }))

function render(element: ReactElement): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return renderToString(createElement(QueryClientProvider, { client }, element))
}

const order: ApiMintOrder = {
  orderId: '0b9f3c1e-0000-4000-8000-000000000001',
  status: 'submitted',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amount: '802.168',
  requestedBy: 'staff@mintdesk.local',
  createdAt: '2026-01-31T14:05:09.123Z',
  decision: null,
  outcome: null,
  tx: { hash: `0x${'ab'.repeat(32)}`, nonce: 41, blockNumber: null, confirmations: null },
  vaultProof: {
    vault: 'LDN-1',
    receiptRef: 'VR-2026-000123',
    documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
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
  },
  timeline: [{ at: '2026-01-31T14:05:09.200Z', event: 'not_mined_yet', detail: 'waiting' }],
}

describe('mint components render', () => {
  it('the order page shows the proof, the total, the transaction and the timeline', () => {
    const html = render(createElement(MintOrderDetail, { initialOrder: order }))
    expect(html).toContain('802.168')
    expect(html).toContain('Submitted')
    expect(html).toContain('AB123457')
    expect(html).toContain('999.9')
    expect(html).toContain(order.tx?.hash)
    expect(html).toContain('Not mined yet')
    expect(html).toContain('2026-01-31 14:05:09 UTC')
    // before its stream opens (no effects run here), the page says it polls
    expect(html).toContain('Live: refreshing every 1 s')
  })

  it('a failed order says its outcome and reason first, not a green "Approved" banner', () => {
    const failed: ApiMintOrder = {
      ...order,
      status: 'failed',
      decision: { outcome: 'approved', by: 'approver@mintdesk.local', at: '2026-01-31T14:06:00.000Z', reason: null },
      outcome: {
        status: 'failed',
        reason: 'recipient_not_allowed',
        lastError: null,
        text: 'The recipient is not on the allowlist.',
        by: null,
        at: '2026-01-31T14:07:00.000Z',
        note: null,
      },
    }
    // React's text separators (<!-- -->) left out, as a reader sees the text
    const html = render(createElement(MintOrderDetail, { initialOrder: failed })).replaceAll('<!-- -->', '')
    const outcome = html.indexOf('Failed: nothing was minted')
    expect(outcome).toBeGreaterThan(-1)
    expect(html).toContain('The recipient is not on the allowlist.')
    expect(outcome).toBeLessThan(html.indexOf('Vault proof'))
    expect(outcome).toBeLessThan(html.indexOf('Amount'))
    // the approval is told beneath the failure, in its box; no success banner
    expect(html).not.toContain('bg-emerald-50')
    expect(html).toContain('It had been approved by approver@mintdesk.local')
  })

  it('a rejected order says who rejected it, when and why, once', () => {
    const rejected: ApiMintOrder = {
      ...order,
      status: 'rejected',
      tx: null,
      decision: {
        outcome: 'rejected',
        by: 'approver@mintdesk.local',
        at: '2026-01-31T14:06:00.000Z',
        reason: 'receipt unreadable',
      },
      outcome: {
        status: 'rejected',
        reason: 'rejected',
        lastError: null,
        text: 'The second person (an approver or an admin) rejected it.',
        by: 'approver@mintdesk.local',
        at: '2026-01-31T14:06:00.000Z',
        note: 'receipt unreadable',
      },
    }
    const html = render(createElement(MintOrderDetail, { initialOrder: rejected }))
    expect(html).toContain('Rejected: nothing will be minted')
    expect(html.split('receipt unreadable')).toHaveLength(2)
  })

  it('the list shows each order with its status, amount and a link to its page', () => {
    const html = render(
      createElement(MintOrderList, {
        initialPage: {
          items: [
            {
              orderId: order.orderId,
              status: 'confirmed',
              to: order.to,
              amount: '802.168',
              vault: 'LDN-1',
              requestedBy: 'staff@mintdesk.local',
              createdAt: order.createdAt,
              txHash: `0x${'cd'.repeat(32)}`,
            },
          ],
          nextCursor: 'abc',
        },
        showRequester: true,
      }),
    )
    expect(html).toContain(`/mints/${order.orderId}`)
    expect(html).toContain('802.168')
    expect(html).toContain('Confirmed')
    expect(html).toContain('0x7099…79C8')
    expect(html).toContain('Load more')
    expect(html).toContain('Up to date: nothing in flight')
    expect(html).toContain('staff@mintdesk.local')
  })

  it('the form starts on vault LDN-1 with a search box, no bar, and labelled fields', () => {
    const html = render(createElement(MintRequestForm))
    expect(html).toContain('Search bars')
    expect(html).toContain('type="search"')
    expect(html).toContain('value="LDN-1"')
    expect(html).toContain('No bar yet')
    expect(html).toContain('aria-label="Total fine weight"')
    expect(html).toContain('aria-label="Bar count"')
    expect(html).toContain('Recipient address')
    expect(html).toContain('Amount (fine oz)')
    expect(html).toMatch(/name="amount"[^>]*readOnly|readOnly[^>]*name="amount"/i)
    expect(html).toContain('Receipt document SHA-256')
    expect(html).toContain('Request mint')
    expect(html).not.toContain('aria-label="Bar 1 serial"')
  })
})
