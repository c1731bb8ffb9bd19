import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintControlsRefusal } from './mintControlsRefusal'

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
 * The mint controls (docs/architecture.md invariant 6) for the approval
 * (lib/web/approvals/approveMintOrder.ts) and the worker before signing
 * (worker/mint/checkBeforeSigning.ts): a thin call of their one home, the SQL function
 * public.check_mint_controls (db/functions/check_mint_controls.sql), which the intake's
 * create_mint_order calls too. It throws what the intake throws for the same refusal
 * (mintControlsRefusal):
 * 1. `to` must be on the recipient allowlist: RecipientNotAllowedError (422).
 * 2. amountWei <= mint_limits.max_order_wei: else OverLimitError (422).
 * 3. the rolling 24 h total (public.recent_mints_wei: every order in flight, those mined in
 *    the last 24 h and the requests of the last 24 h awaiting approval, but `excludeOrderId`:
 *    an order counts from its approval and signing, not its request) + amountWei
 *    <= mint_limits.daily_cap_wei: else OverLimitError (422).
 * A null limit is unlimited, except on a connection that requires the limits (the
 * production worker's, db/client.ts `requireMintLimits`): there the function raises
 * SQLSTATE MDL01 while either is unset, and nothing is signed until both are.
 *
 * Concurrency: with a cap set, the function takes the transaction-scoped advisory lock
 * `mint_limits.daily_cap` (unless `lock: false`) before it reads the total, so call it in
 * the transaction that writes or approves the order: the lock is held until that commits.
 * A refusal comes back as a row, not a database error, so the caller's transaction is not
 * aborted by it (the worker maps it to its own permanent error).
 */
export async function checkMintControls(
  db: DbOrTx,
  p: CheckMintControlsParameters,
): Promise<CheckMintControlsReturnType> {
  const [row] = await db.execute<{ refusal: string | null; detail: unknown; used_wei: string }>(sql`
    select r_refusal as refusal, r_detail as detail, r_used_wei::text as used_wei
      from public.check_mint_controls(p_to => ${p.to}, p_amount_wei => ${p.amountWei.toString()}::numeric,
        p_exclude_order_id => ${p.excludeOrderId ?? null}::uuid, p_lock => ${p.lock !== false}::boolean)`)
  if (!row) throw new Error('check_mint_controls returned no row')
  const refused = mintControlsRefusal({ refusal: row.refusal, detail: row.detail, to: p.to })
  if (refused) throw refused
  if (row.refusal !== null) throw new Error(`check_mint_controls: unknown refusal ${row.refusal}`)
  return { usedWei: BigInt(row.used_wei) }
}
