import type { ApiMintAccepted } from '@/lib/web/mint/apiTypes'

/**
 * TEST ONLY: the mint_send job id of an accepted order, which only an order below the
 * approval threshold has at intake (tests that are not about approvals pass
 * `approvalThresholdWei: null`); an order awaiting approval fails the test here.
 */
export function acceptedJobId(accepted: ApiMintAccepted): string {
  if (accepted.status !== 'pending')
    throw new Error(`order ${accepted.orderId} is ${accepted.status}: it has no job yet`)
  return accepted.jobId
}
