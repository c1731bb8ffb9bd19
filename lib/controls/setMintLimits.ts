import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintLimits } from '@/db/schema/controls'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { isUuid } from '@/lib/mint/isUuid'
import { ozToWei } from '@/lib/money/ozToWei'
import type { ApiMintLimits } from './apiTypes'
import type { AppliedChange } from './appliedChange'
import { readApiMintLimits } from './readApiMintLimits'

export type SetMintLimitsParameters = {
  /** the per-order maximum, fine oz with at most 3 decimals; null: unlimited */
  maxOrderOz: string | null
  /** the rolling 24 h cap, fine oz with at most 3 decimals; null: unlimited */
  dailyCapOz: string | null
  /** the admin (the web), or the deploy's CLI (cli/limits.ts: a non-uuid id, audited by its email) */
  actor: AdminActor
  /** the control change this applies (its id and author), named in the audit row; `actor` confirmed it */
  change?: AppliedChange
}

export type SetMintLimitsReturnType = ApiMintLimits

/**
 * Sets both mint limits (the singleton mint_limits row) with an audit row saying what
 * they were and what they became, in one transaction. Lowering a limit does not touch
 * existing orders: the worker checks them again before signing and refuses those now
 * above it. The row is locked while it changes, so two admins at once leave one result
 * and two audit rows in the order they happened.
 */
export async function setMintLimits(db: DbOrTx, p: SetMintLimitsParameters): Promise<SetMintLimitsReturnType> {
  const maxOrderWei = p.maxOrderOz === null ? null : ozToWei(p.maxOrderOz)
  const dailyCapWei = p.dailyCapOz === null ? null : ozToWei(p.dailyCapOz)
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from mint_limits where id for update`)
    const before = await readApiMintLimits(tx)
    const values = {
      id: true,
      maxOrderWei: maxOrderWei === null ? null : maxOrderWei.toString(),
      dailyCapWei: dailyCapWei === null ? null : dailyCapWei.toString(),
      updatedBy: isUuid(p.actor.id) ? p.actor.id : null,
      updatedAt: new Date(),
    }
    await tx.insert(mintLimits).values(values).onConflictDoUpdate({ target: mintLimits.id, set: values })
    const after = await readApiMintLimits(tx)
    await recordAudit(tx, {
      actor: p.actor,
      action: 'limits.set',
      targetType: 'mint_limits',
      targetId: 'mint_limits',
      detail: {
        before: { maxOrderOz: before.maxOrderOz, dailyCapOz: before.dailyCapOz },
        after: { maxOrderOz: after.maxOrderOz, dailyCapOz: after.dailyCapOz },
        ...p.change,
      },
    })
    return after
  })
}
