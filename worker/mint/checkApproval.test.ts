import { describe, expect, it } from 'vitest'
import { ApprovalMissingError } from '@/lib/errors/approvals'
import { isPermanentJobError } from '@/lib/errors/jobs'
import { checkApproval } from './checkApproval'

const OZ = 10n ** 18n
const requester = '11111111-1111-4111-8111-111111111111'
const approver = '22222222-2222-4222-8222-222222222222'
const order = (approvedBy: string | null) => ({ id: 'o-1', requestedBy: requester, approvedBy })

describe('checkApproval (the worker, before signing)', () => {
  it('at or above the threshold: approved by a second person passes; not approved, or by the requester, is refused (permanent)', () => {
    expect(() =>
      checkApproval({ order: order(approver), amountWei: 500n * OZ, approvalThresholdWei: 500n * OZ }),
    ).not.toThrow()
    for (const approvedBy of [null, requester]) {
      const run = () =>
        checkApproval({ order: order(approvedBy), amountWei: 500n * OZ, approvalThresholdWei: 500n * OZ })
      expect(run).toThrow(ApprovalMissingError)
      expect(run).toThrow(
        approvedBy === null
          ? /was not approved by a second person \(500\.000 oz is at or above the approval threshold of 500\.000 oz\)/
          : /approved by its own requester/,
      )
    }
    const error = (() => {
      try {
        checkApproval({ order: order(null), amountWei: 1n, approvalThresholdWei: 0n })
      } catch (e) {
        return e
      }
    })()
    expect(error).toMatchObject({ check: 'approval_missing', code: 'approval_missing' })
    expect(isPermanentJobError(error)).toBe(true)
  })

  it('below the threshold: no approval needed', () => {
    expect(() =>
      checkApproval({ order: order(null), amountWei: 500n * OZ - 1n, approvalThresholdWei: 500n * OZ }),
    ).not.toThrow()
  })
})
