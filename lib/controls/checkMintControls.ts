import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { RecipientNotAllowedError } from '@/lib/errors/controls'
import { getMintLimits } from './getMintLimits'
import { overLimitError } from './overLimitError'
import { sumRecentMints } from './sumRecentMints'

export type CheckMintControlsParameters = {
  /** the recipient, any case */
  to: string
  /** the order's amount: at intake and in the worker, the fine weight of its bars */
  amountWei: bigint
  /** an order already written (the one being checked): left out of the rolling 24 h total */
  excludeOrderId?: string
  /**
   * Take the daily cap's lock (default true). Only a caller that holds a long transaction
   * and adds nothing to the rolling total (the worker, whose order was counted at intake,
   * signing through KMS in the same transaction) passes false.
   */
  lock?: boolean
}

export type CheckMintControlsReturnType = {
  /** the rolling 24 h total of the other orders, in wei (0 when no cap is set: not read) */
  usedWei: bigint
}

/**
 * The mint controls of issue 13 (ARCHITECTURE.md invariant 6), one function for every
 * gate: intake (lib/mint/createMintOrder.ts), approval, and the worker before signing
 * (worker/mint/checkBeforeSigning.ts).
 * 1. `to` must be on the recipient allowlist: RecipientNotAllowedError (422).
 * 2. amountWei <= mint_limits.max_order_wei: else OverLimitError (422).
 * 3. the rolling 24 h total (orders created in the last 24 h that are confirmed, in
 *    flight (pending/submitted) or awaiting approval, but `excludeOrderId`) + amountWei
 *    <= mint_limits.daily_cap_wei: else OverLimitError (422).
 * A null limit is unlimited.
 *
 * Concurrency: two intakes at once must not both pass the cap, each counting the total
 * without the other. So, when a cap is set, the check first takes a transaction-scoped
 * advisory lock (`mint_limits.daily_cap`) and only then reads the total: intakes checking
 * the cap run one after the other until each commits or rolls back, and under READ
 * COMMITTED the second one's read (a new statement, a new snapshot) sees the first one's
 * order. Call it inside the transaction that writes the order, after the order's row
 * exists, so the lock is held until that row is visible. The lock is not taken with no
 * cap (dev, tests): nothing then needs serialising.
 */
export async function checkMintControls(db: DbOrTx, p: CheckMintControlsParameters): Promise<CheckMintControlsReturnType> {
  const to = p.to.toLowerCase()
  const allowed = await db.execute<{ one: number }>(sql`select 1 as one from allowed_recipients where address = ${to}`)
  if (allowed.length === 0) throw new RecipientNotAllowedError({ to: p.to })

  const limits = await getMintLimits(db)
  if (limits.maxOrderWei !== null && p.amountWei > limits.maxOrderWei) {
    throw overLimitError({ limit: 'max_order', amountWei: p.amountWei, limitWei: limits.maxOrderWei })
  }
  if (limits.dailyCapWei === null) return { usedWei: 0n }

  if (p.lock !== false) await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('mint_limits.daily_cap', 0))`)
  const usedWei = await sumRecentMints(db, { excludeOrderId: p.excludeOrderId })
  if (usedWei + p.amountWei > limits.dailyCapWei) {
    throw overLimitError({ limit: 'daily_cap', amountWei: p.amountWei, limitWei: limits.dailyCapWei, usedWei })
  }
  return { usedWei }
}
