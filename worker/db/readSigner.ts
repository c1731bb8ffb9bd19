import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { signers } from '@/db/schema'

export type ReadSignerParameters = { address: string; lock?: boolean }
export type SignerRow = typeof signers.$inferSelect

/** One signer row (next_nonce: the source of truth for its nonces), optionally locked. */
export async function readSigner(
  db: DbOrTx,
  { address, lock = false }: ReadSignerParameters,
): Promise<SignerRow | undefined> {
  const q = db.select().from(signers).where(eq(signers.address, address))
  return (lock ? await q.for('update') : await q)[0]
}
