import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

/** The fine weight of every burned redemption, in wei: bars out of backing whose tokens are gone. */
export async function readRedeemedWei(db: DbOrTx): Promise<bigint> {
  const [row] = await db.execute<{ wei: string }>(
    sql`select coalesce(sum(amount_wei), 0)::text as wei from redemptions where status = 'burned'`,
  )
  return BigInt(row?.wei ?? '0')
}
