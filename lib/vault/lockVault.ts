import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type LockVaultParameters = {
  vault: string
  /** exclusive: a bar-list import; shared: an intake reserving bars (many at once, never during an import) */
  mode: 'exclusive' | 'shared'
}

/**
 * A transaction-scoped advisory lock on one vault's inventory. An import holds it
 * exclusively, so it sees and changes the vault's bars alone and two imports of one
 * vault run one after the other; reservations hold it shared, so they never see an
 * import half done (and never block each other: their bars are decided by row locks).
 */
export async function lockVault(tx: Tx, { vault, mode }: LockVaultParameters): Promise<void> {
  const key = `vault_bars:${vault}`
  if (mode === 'exclusive') await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`)
  else await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`)
}
