import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Tx } from '@/db/client'
import { mintOrders, signerNonces, signers } from '@/db/schema'
import { NoSignerError } from '@/lib/errors/signers'

export type ReserveNonceParameters = {
  chainId: number
  /** the signers this worker holds keys for */
  candidates: readonly Address[]
  /** the order the nonce is bound to (use 'mint') */
  orderId: string
}

export type ReserveNonceReturnType = { signerAddress: Address; nonce: bigint }

/**
 * Takes the next nonce of one signer, inside the caller's transaction (invariant 3):
 * the signer row is locked (FOR NO KEY UPDATE SKIP LOCKED first, so concurrent workers spread
 * over the signers; if all are busy, wait for the least used one), next_nonce is
 * incremented, the nonce is written to signer_nonces as `reserved` and bound to the
 * order. The row stays locked until the caller commits (after signing) or rolls back
 * (the nonce is then handed out again: nothing is lost).
 */
export async function reserveNonce(tx: Tx, { chainId, candidates, orderId }: ReserveNonceParameters): Promise<ReserveNonceReturnType> {
  if (candidates.length === 0) throw new NoSignerError(chainId)
  await tx.execute(sql`set local lock_timeout = '10s'`)
  const eligible = and(eq(signers.active, true), eq(signers.chainId, chainId), inArray(signers.address, [...candidates]))
  const pick = () =>
    tx.select({ address: signers.address, nextNonce: signers.nextNonce }).from(signers).where(eligible).orderBy(asc(signers.nextNonce)).limit(1)
  // NO KEY UPDATE: excludes other nonce takers, but not the foreign-key checks of rows that
  // merely reference the signer (chain_txs, signer_nonces), so those never wait on a signing
  const row = (await pick().for('no key update', { skipLocked: true }))[0] ?? (await pick().for('no key update'))[0]
  if (!row) throw new NoSignerError(chainId)

  const nonce = row.nextNonce
  await tx
    .update(signers)
    .set({ nextNonce: sql`${signers.nextNonce} + 1`, updatedAt: new Date() })
    .where(eq(signers.address, row.address))
  await tx.insert(signerNonces).values({ signerAddress: row.address, nonce, use: 'mint', orderId, state: 'reserved' })
  await tx.update(mintOrders).set({ signerAddress: row.address, nonce, updatedAt: new Date() }).where(eq(mintOrders.id, orderId))
  return { signerAddress: row.address as Address, nonce }
}
