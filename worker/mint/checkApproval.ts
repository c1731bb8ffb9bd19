import { ApprovalMissingError } from '@/lib/errors/approvals'
import { formatDecimal } from '@/lib/money/formatDecimal'
import type { MintOrder } from '../db/readMintOrderRow'

export type CheckApprovalParameters = {
  order: Pick<MintOrder, 'id' | 'approvedBy' | 'requestedBy'>
  /** the amount being signed, re-derived from the order's bars */
  amountWei: bigint
  /** the worker's own APPROVAL_THRESHOLD_OZ in wei (its configuration, not the web's or a row's) */
  approvalThresholdWei: bigint
}

/**
 * Four eyes, enforced by the signer (docs/architecture.md invariants 6 and 7): an order of
 * the worker's approval threshold or more is signed only when a second person approved
 * it (approved_by set, and not its requester). The web adds the job only at approval,
 * but a compromised web (or anyone writing the database) could write a `pending` order
 * and its job directly: such an order gets no signature. A refusal is permanent
 * (ApprovalMissingError): dead letter, order failed, bars freed.
 */
export function checkApproval({ order, amountWei, approvalThresholdWei }: CheckApprovalParameters): void {
  if (amountWei < approvalThresholdWei) return
  const needs = `${oz(amountWei)} oz is at or above the approval threshold of ${oz(approvalThresholdWei)} oz`
  if (order.approvedBy === null)
    throw new ApprovalMissingError(`order ${order.id} was not approved by a second person (${needs})`)
  if (order.approvedBy === order.requestedBy)
    throw new ApprovalMissingError(`order ${order.id} was approved by its own requester (${needs})`)
}

/** wei as fine ounces, at least 3 decimals, exact. */
function oz(wei: bigint): string {
  return formatDecimal(wei, { decimals: 18, minFraction: 3 })
}
