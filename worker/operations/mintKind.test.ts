import { describe, expect, it } from 'vitest'
import type { MintOrder } from '../db/readMintOrderRow'
import { mintKind } from './mintKind'

const row = (p: Partial<MintOrder>): MintOrder => ({
  id: '0e5a3c7e-4f1b-4c52-9a39-2f4c2f7f1a01',
  toAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amountWei: '1000000000000000000',
  status: 'pending',
  vault: 'LDN-1',
  receiptRef: 'r',
  documentSha256: '0'.repeat(64),
  requestedBy: '0e5a3c7e-4f1b-4c52-9a39-2f4c2f7f1a02',
  idempotencyKey: null,
  requestHash: null,
  acceptedResponse: null,
  jobId: null,
  signerAddress: null,
  nonce: null,
  txHash: null,
  blockNumber: null,
  failureReason: null,
  approvedBy: null,
  approvedAt: null,
  rejectedBy: null,
  rejectedAt: null,
  rejectionReason: null,
  intentDeadline: new Date('2030-01-01T00:00:00Z'),
  createdAt: new Date(),
  updatedAt: new Date(),
  submittedAt: null,
  confirmedAt: null,
  ...p,
})

describe('mintKind', () => {
  it('is done with a confirmed or cancelled order only; every other status is still to be sent or followed', () => {
    expect(mintKind.settledOf({ row: row({ status: 'confirmed' }) })).toBe('confirmed')
    expect(mintKind.settledOf({ row: row({ status: 'cancelled' }) })).toBe('cancelled')
    for (const status of ['pending', 'submitted', 'failed'] as const)
      expect(mintKind.settledOf({ row: row({ status }) })).toBeNull()
  })

  it('refuses an order whose recipient is not an address, before anything is built for it', () => {
    expect(mintKind.refusalOf({ row: row({}) })).toBeNull()
    expect(mintKind.refusalOf({ row: row({ toAddress: 'not-an-address' }) })).toBe(
      'the recipient not-an-address is not an address',
    )
  })

  it("names its chain_txs and signer_nonces rows by order_id, and reads the contract's OrderAlreadyMinted as done", () => {
    expect(mintKind.kind).toBe('mint')
    expect(mintKind.reference({ id: 'x' })).toEqual({
      orderId: 'x',
      controlChangeId: null,
      redemptionId: null,
      complianceOperationId: null,
    })
    expect(mintKind.alreadyDone).toBe('OrderAlreadyMinted')
  })
})
