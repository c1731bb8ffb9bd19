import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { ApiRedemption } from '@/lib/web/redemptions/apiTypes'
import { redemptionApprovalSchema } from '@/lib/web/signing/apiTypes'
import { RedemptionDetail, type RedemptionViewer } from './RedemptionDetail'
import { RedemptionsAwaitingApproval } from './RedemptionsAwaitingApproval'
import { redemptionApprovalQueryKey } from './redemptionsApi'

// Server-render smoke tests of the redemption page: the outcome first, the decision for whom it is, the bars.
vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }) }))

const REDEMPTION_ADDRESS = '0x000000000000000000000000000000000000dEaD'
const redemption: ApiRedemption = {
  redemptionId: '7c0f3c1e-0000-4000-8000-000000000001',
  status: 'awaiting_approval',
  depositTx: `0x${'ab'.repeat(32)}`,
  depositLogIndex: 0,
  holder: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amount: '802.168',
  reference: 'REL-2026-0042',
  requestedBy: 'staff@mintdesk.local',
  txHash: null,
  blockNumber: null,
  failureReason: null,
  rejectionReason: null,
  intentDeadline: '2030-03-17T17:46:40.000Z',
  createdAt: '2026-01-31T14:05:09.123Z',
  updatedAt: '2026-01-31T14:05:09.123Z',
  burnedAt: null,
  bars: ['AB123456', 'AB123457'].map((serial) => ({
    serial,
    refiner: 'Valcambi SA',
    vault: 'LDN-1',
    fineOz: '401.084',
    status: 'backing',
    orderId: '0b9f3c1e-0000-4000-8000-000000000001',
  })),
  signatures: [],
  timeline: [{ at: '2026-01-31T14:05:09.123Z', event: 'approval_requested', detail: 'burn 802.168 oz' }],
}

const approval = redemptionApprovalSchema.parse({
  typedData: {
    domain: { name: 'GoldMinter', version: '1', chainId: '31337', verifyingContract: REDEMPTION_ADDRESS },
    types: { RedemptionIntent: [{ name: 'redemptionId', type: 'bytes32' }] },
    primaryType: 'RedemptionIntent',
    message: {
      redemptionId: `0x${'11'.repeat(32)}`,
      from: REDEMPTION_ADDRESS,
      amount: '802168000000000000000',
      barsHash: `0x${'22'.repeat(32)}`,
      deadline: '1900000000',
    },
  },
  required: 1,
  signatures: [],
})

function page(r: ApiRedemption, viewer: RedemptionViewer): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  client.setQueryData(redemptionApprovalQueryKey(r.redemptionId), approval)
  const element: ReactElement = createElement(RedemptionDetail, {
    initialRedemption: r,
    viewer,
    redemptionAddress: REDEMPTION_ADDRESS,
  })
  return renderToString(createElement(QueryClientProvider, { client }, element))
}

const approver: RedemptionViewer = { email: 'approver@mintdesk.local', role: 'approver', signers: ['wallet', 'dev'] }

describe('the redemption page', () => {
  it('an approver reads the outcome, the intent to sign, the bars, and may sign or reject', () => {
    const html = page(redemption, approver)
    expect(html).toContain('Awaiting approval: nothing is burned until approvers sign')
    expect(html).toContain('What you sign')
    expect(html).toContain('0 of 1 signature')
    expect(html).toContain('>Sign and approve<')
    expect(html).toContain('>Sign with the dev key<')
    expect(html).toContain('>Reject<')
    for (const text of ['AB123456', 'AB123457', '401.084', 'REL-2026-0042', '2026-01-31 14:05:09 UTC'])
      expect(html).toContain(text)
    expect(html).not.toContain('Do not sign')
  })

  it('an intent that burns another amount or from another address: "do not sign", signing disabled', () => {
    const html = page({ ...redemption, amount: '401.084' }, approver)
    expect(html).toContain('Do not sign: the intent does not match the redemption')
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sign and approve</)
  })

  it('its requester and staff are offered no decision; a burned one says its burn first', () => {
    expect(page(redemption, { ...approver, email: 'staff@mintdesk.local', role: 'admin' })).toContain(
      'You requested this: another person must sign or reject it.',
    )
    const staff = page(redemption, { email: 'staff@mintdesk.local', role: 'staff', signers: ['wallet'] })
    expect(staff).not.toContain('Your decision')
    const burnTx = `0x${'cd'.repeat(32)}`
    const burned = page(
      { ...redemption, status: 'burned', txHash: burnTx, blockNumber: '42', burnedAt: '2026-02-01T09:00:00.000Z' },
      approver,
    )
    expect(burned).toContain('Burned')
    expect(burned).toContain(burnTx)
    expect(burned).toContain('in block 42')
    expect(burned).not.toContain('Your decision')
  })
})

describe('the approvals page lists redemptions awaiting a signature', () => {
  it('links each to its page; the viewer’s own is not theirs to decide', () => {
    const summary = { ...redemption, bars: 2 }
    const html = renderToString(
      createElement(RedemptionsAwaitingApproval, { redemptions: [summary], viewerEmail: 'approver@mintdesk.local' }),
    )
    expect(html).toContain(`/redemptions/${redemption.redemptionId}`)
    expect(html).toContain('Review and sign')
    const mine = renderToString(
      createElement(RedemptionsAwaitingApproval, { redemptions: [summary], viewerEmail: 'staff@mintdesk.local' }),
    )
    expect(mine).toContain('yours: another person decides')
    expect(renderToString(createElement(RedemptionsAwaitingApproval, { redemptions: [], viewerEmail: 'x' }))).toContain(
      'No redemption awaits a signature.',
    )
  })
})
