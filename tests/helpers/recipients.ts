import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

// TEST ONLY: puts recipients on the allowlist, as an admin would, so tests
// that mint reach the steps they test. Idempotent: an address already there stays.

/** Allows each address (any case) as a mint recipient, labelled "test recipient". */
export async function allowRecipients(db: DbOrTx, addresses: readonly string[]): Promise<void> {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))]
  for (const address of unique) {
    await db.execute(sql`
      insert into allowed_recipients (address, label) values (${address}, 'test recipient')
      on conflict (address) do nothing`)
  }
}

/** Sets the mint limits directly (wei; null = unlimited), for tests of the limits. */
export async function setTestMintLimits(
  db: DbOrTx,
  p: { maxOrderWei: bigint | null; dailyCapWei: bigint | null },
): Promise<void> {
  const max = p.maxOrderWei === null ? null : p.maxOrderWei.toString()
  const cap = p.dailyCapWei === null ? null : p.dailyCapWei.toString()
  await db.execute(sql`
    insert into mint_limits (id, max_order_wei, daily_cap_wei) values (true, ${max}::numeric, ${cap}::numeric)
    on conflict (id) do update set max_order_wei = excluded.max_order_wei, daily_cap_wei = excluded.daily_cap_wei, updated_at = now()`)
}
