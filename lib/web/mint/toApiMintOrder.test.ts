import { describe, expect, it } from 'vitest'
import { toApiMintBar } from './toApiMintBar'
import { type ToApiMintOrderParameters, toApiMintOrder } from './toApiMintOrder'

const base: ToApiMintOrderParameters = {
  order: {
    id: '0b9f3c1e-0000-4000-8000-000000000001',
    status: 'pending',
    toAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amountWei: '802168000000000000000',
    vault: 'LDN-1',
    receiptRef: 'VR-1',
    documentSha256: 'a'.repeat(64),
    requestedByEmail: 'staff@mintdesk.local',
    createdAt: new Date('2026-01-31T14:05:09.123Z'),
    updatedAt: new Date('2026-01-31T14:05:09.123Z'),
    submittedAt: null,
    confirmedAt: null,
    failureReason: null,
    signerAddress: null,
    nonce: null,
    txHash: null,
    blockNumber: null,
    approvedByEmail: null,
    approvedAt: null,
    rejectedByEmail: null,
    rejectedAt: null,
    rejectionReason: null,
    // as readMintOrder gives them: stored rows through toApiMintBar
    bars: [
      { serial: 'A', refiner: 'R', year: 2025, grossOz: '401.125', fineness: '999.90', fineOz: '401.084' },
      { serial: 'B', refiner: 'R', year: 2025, grossOz: '400.000', fineness: '995.00', fineOz: '398.000' },
      { serial: 'C', refiner: 'R', year: 2025, grossOz: '32.150', fineness: '999.99', fineOz: '32.149' },
    ].map(toApiMintBar),
  },
  latestTx: null,
  confirmations: null,
  timeline: [],
}

describe('toApiMintOrder', () => {
  it('writes amounts and weights as exact strings, fineness as submitted', () => {
    const r = toApiMintOrder(base)
    expect(r.amount).toBe('802.168')
    expect(r.vaultProof.bars.map((b) => [b.grossOz, b.fineness, b.fineOz])).toEqual([
      ['401.125', '999.9', '401.084'],
      ['400.000', '995.0', '398.000'],
      ['32.150', '999.99', '32.149'],
    ])
    expect(r.createdAt).toBe('2026-01-31T14:05:09.123Z')
    expect(r.tx).toBeNull()
  })

  it('decision: none, the approval (who, when), or the rejection with its reason', () => {
    expect(toApiMintOrder(base).decision).toBeNull()
    const at = new Date('2026-02-01T09:00:00.000Z')
    expect(
      toApiMintOrder({
        ...base,
        order: { ...base.order, approvedByEmail: 'approver@mintdesk.local', approvedAt: at },
      }).decision,
    ).toEqual({
      outcome: 'approved',
      by: 'approver@mintdesk.local',
      at: '2026-02-01T09:00:00.000Z',
      reason: null,
    })
    const rejected = {
      ...base.order,
      status: 'rejected' as const,
      rejectedByEmail: 'admin@mintdesk.local',
      rejectedAt: at,
      rejectionReason: 'receipt unreadable',
    }
    expect(toApiMintOrder({ ...base, order: rejected }).decision).toEqual({
      outcome: 'rejected',
      by: 'admin@mintdesk.local',
      at: '2026-02-01T09:00:00.000Z',
      reason: 'receipt unreadable',
    })
  })

  it('outcome: none while the order is on its way or confirmed', () => {
    for (const status of ['awaiting_approval', 'pending', 'submitted', 'confirmed'] as const) {
      expect(toApiMintOrder({ ...base, order: { ...base.order, status } }).outcome).toBeNull()
    }
  })

  it("outcome of a failed order: its mint.failed event's codes and their sentences, never the admin's text", () => {
    const failedAt = new Date('2026-02-01T10:00:00.000Z')
    const order = { ...base.order, status: 'failed' as const, failureReason: 'connect ECONNREFUSED 10.0.0.5:8545' }
    const failed = (payload: unknown) =>
      toApiMintOrder({ ...base, order, ending: { failedEvent: { payload, at: failedAt }, cancelled: null } }).outcome
    expect(failed({ status: 'failed', reason: 'attempts_exhausted', lastError: 'broadcast_rejected' })).toEqual({
      status: 'failed',
      reason: 'attempts_exhausted',
      lastError: 'broadcast_rejected',
      text: 'Every attempt failed (the last: the node refused the transaction).',
      by: null,
      at: '2026-02-01T10:00:00.000Z',
      note: null,
    })
    expect(failed({ reason: 'recipient_not_allowed' })?.text).toBe('The recipient is not on the allowlist.')
    // an event recorded before reason codes held the error's text: it stays inside
    const old = failed({ reason: 'mint reverted on chain: FrozenAddress(0x90F7)' })
    expect(old).toMatchObject({ reason: 'unspecified', text: 'No reason was recorded.' })
    expect(JSON.stringify(old)).not.toContain('FrozenAddress')
    // no event at all: unspecified, at the order's last change
    const none = toApiMintOrder({ ...base, order }).outcome
    expect(none).toMatchObject({ reason: 'unspecified', at: order.updatedAt.toISOString() })
    expect(JSON.stringify(none)).not.toContain('ECONNREFUSED')
  })

  it('outcome of a rejected order: who, when and their words; of a cancelled one: the admin of its timeline event', () => {
    const at = new Date('2026-02-01T09:00:00.000Z')
    const rejected = {
      ...base.order,
      status: 'rejected' as const,
      rejectedByEmail: 'approver@mintdesk.local',
      rejectedAt: at,
      rejectionReason: 'receipt unreadable',
    }
    expect(toApiMintOrder({ ...base, order: rejected }).outcome).toEqual({
      status: 'rejected',
      reason: 'rejected',
      lastError: null,
      text: 'The second person (an approver or an admin) rejected it.',
      by: 'approver@mintdesk.local',
      at: '2026-02-01T09:00:00.000Z',
      note: 'receipt unreadable',
    })
    const cancelled = toApiMintOrder({
      ...base,
      order: { ...base.order, status: 'cancelled' },
      ending: { failedEvent: null, cancelled: { actor: 'admin@mintdesk.local', at } },
    }).outcome
    expect(cancelled).toEqual({
      status: 'cancelled',
      reason: 'cancelled',
      lastError: null,
      text: 'An admin cancelled it.',
      by: 'admin@mintdesk.local',
      at: '2026-02-01T09:00:00.000Z',
      note: null,
    })
  })

  it('an amount that is not whole milli-ounces is shown in wei, not rounded', () => {
    expect(toApiMintOrder({ ...base, order: { ...base.order, amountWei: '1000000000000000001' } }).amount).toBe(
      '1000000000000000001 wei',
    )
  })

  it('amounts beyond 2^53 wei stay exact', () => {
    const r = toApiMintOrder({
      ...base,
      order: { ...base.order, amountWei: '123456789012345678901000000000000000' },
    })
    expect(r.amount).toBe('123456789012345678.901')
  })

  it('tx: the mined hash wins over the latest signed one', () => {
    const r = toApiMintOrder({
      ...base,
      order: { ...base.order, txHash: '0xmined', nonce: 7n, blockNumber: 99n },
      latestTx: { hash: '0xlatest', nonce: 7n, minedBlock: null },
      confirmations: 2,
    })
    expect(r.tx).toEqual({ hash: '0xmined', nonce: 7, blockNumber: 99, confirmations: 2 })
  })
})
