import type { ApiDeposit } from '@/lib/web/redemptions/apiTypes'

const rank: Record<ApiDeposit['status'], number> = { unmatched: 0, matched: 1, redeemed: 2 }

/**
 * The deposits as the desk lists them: unmatched first (they wait for staff), then matched, then redeemed; newest
 * first within each (the API's own order, kept).
 */
export function sortDeposits(deposits: readonly ApiDeposit[]): ApiDeposit[] {
  return deposits
    .map((deposit, index) => ({ deposit, index }))
    .sort((a, b) => rank[a.deposit.status] - rank[b.deposit.status] || a.index - b.index)
    .map(({ deposit }) => deposit)
}
