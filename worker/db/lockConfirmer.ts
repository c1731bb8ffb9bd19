import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type LockConfirmerParameters = { signerAddress: string }

/**
 * Serialises, per signer, the hand-over to its signer_confirm (startConfirming, in the
 * transaction that marks orders submitted) with the confirmer's own decision to look
 * again or to end (scheduleNextConfirm), for the rest of the caller's transaction: an
 * order submitted while the confirmer ends is never left without one.
 */
export async function lockConfirmer(tx: Tx, { signerAddress }: LockConfirmerParameters): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mintdesk:confirmer:${signerAddress.toLowerCase()}`}))`)
}
