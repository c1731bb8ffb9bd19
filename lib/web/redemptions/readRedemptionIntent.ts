import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { BuildRedemptionIntentParameters } from '@/lib/redemption/buildRedemptionIntent'
import { listRedemptionBars } from '@/lib/redemption/listRedemptionBars'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'

/**
 * What a redemption's RedemptionIntent is built from: its id, deadline and bars (in their positions) from the
 * database, the redemption address from the chain. Null when there is no such redemption.
 */
export async function readRedemptionIntent(
  db: DbOrTx,
  p: { redemptionId: string; minter: Pick<MinterReader, 'redemptionAddress'> },
): Promise<(BuildRedemptionIntentParameters & { amountWei: bigint }) | null> {
  const redemptionAddress = p.minter.redemptionAddress()
  redemptionAddress.catch(() => {})
  const [row] = await db.execute<{ intent_deadline: Date | string; amount_wei: string }>(sql`
    select intent_deadline, amount_wei::text as amount_wei from redemptions where id = ${p.redemptionId}::uuid`)
  if (!row) return null
  const bars = (await listRedemptionBars(db, { ids: [p.redemptionId] })).get(p.redemptionId) ?? []
  return {
    redemptionId: p.redemptionId,
    redemptionAddress: await redemptionAddress,
    bars,
    deadline: new Date(row.intent_deadline),
    amountWei: BigInt(row.amount_wei),
  }
}
