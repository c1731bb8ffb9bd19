import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Tx } from '@/db/client'
import { signers } from '@/db/schema'
import { NoSignerError } from '@/lib/errors/signers'

export type ReserveNoncesParameters = {
  chainId: number
  /** the signers this worker holds keys for */
  candidates: readonly Address[]
  /** the orders to bind, in the order their nonces are handed out */
  orderIds: readonly string[]
  /** each candidate's mined transaction count (`latest`), read before this transaction: in flight = next_nonce - it */
  minedCounts: ReadonlyMap<Address, bigint>
  maxInFlight: number
}

export type ReserveNoncesReturnType = {
  signerAddress: Address
  /** nonce by order id, for the orders that got one (the first ones, up to the signer's room) */
  nonces: Map<string, bigint>
}

/**
 * Takes consecutive nonces of ONE signer for a batch, inside the caller's short
 * transaction (invariant 3): the signer row is locked FOR NO KEY UPDATE (SKIP LOCKED
 * first, the one with the most room below MAX_IN_FLIGHT_PER_SIGNER, so concurrent
 * batches spread over signers; if all are busy, wait for the roomiest), next_nonce +=
 * n, n signer_nonces rows `reserved` bound to their orders, and the orders point to
 * their signer and nonce. Nothing is signed here: the caller commits at once, and the
 * binding survives a crash (the order's next attempt signs the same nonce). Returns
 * null when every signer is at its in-flight bound (nothing reserved).
 */
export async function reserveNonces(tx: Tx, p: ReserveNoncesParameters): Promise<ReserveNoncesReturnType | null> {
  if (p.candidates.length === 0) throw new NoSignerError(p.chainId)
  if (p.orderIds.length === 0) return null
  await tx.execute(sql`set local lock_timeout = '10s'`)
  const eligible = and(eq(signers.active, true), eq(signers.chainId, p.chainId), inArray(signers.address, [...p.candidates]))
  const seen = await tx.select({ address: signers.address, nextNonce: signers.nextNonce }).from(signers).where(eligible)
  if (seen.length === 0) throw new NoSignerError(p.chainId)
  const room = (address: string, nextNonce: bigint) => BigInt(p.maxInFlight) - (nextNonce - (p.minedCounts.get(address as Address) ?? nextNonce))
  const ranked = seen.filter((s) => room(s.address, s.nextNonce) > 0n).sort((a, b) => Number(room(b.address, b.nextNonce) - room(a.address, a.nextNonce)))
  if (ranked.length === 0) return null

  const lockOne = async (address: string, skipLocked: boolean) =>
    (await tx.select({ address: signers.address, nextNonce: signers.nextNonce }).from(signers).where(eq(signers.address, address)).for('no key update', skipLocked ? { skipLocked: true } : {}))[0]
  let row: { address: string; nextNonce: bigint } | undefined
  for (const s of ranked) {
    row = await lockOne(s.address, true)
    if (row) break
  }
  // NO KEY UPDATE: excludes other nonce takers, not the foreign-key checks of rows that merely reference the signer
  const best = ranked[0]
  if (!row && best) row = await lockOne(best.address, false)
  if (!row) throw new NoSignerError(p.chainId)
  const free = room(row.address, row.nextNonce)
  if (free <= 0n) return null

  const bound = p.orderIds.slice(0, Number(free < BigInt(p.orderIds.length) ? free : BigInt(p.orderIds.length)))
  const first = row.nextNonce
  const n = BigInt(bound.length)
  await tx.update(signers).set({ nextNonce: sql`${signers.nextNonce} + ${n}`, updatedAt: new Date() }).where(eq(signers.address, row.address))
  const values = sql.join(
    bound.map((orderId, i) => sql`(${first + BigInt(i)}::bigint, ${orderId}::uuid)`),
    sql`, `,
  )
  await tx.execute(sql`
    insert into signer_nonces (signer_address, nonce, use, order_id, state)
    select ${row.address}, v.nonce, 'mint', v.order_id, 'reserved' from (values ${values}) as v(nonce, order_id)`)
  await tx.execute(sql`
    update mint_orders m set signer_address = ${row.address}, nonce = v.nonce, updated_at = now()
    from (values ${values}) as v(nonce, order_id)
    where m.id = v.order_id`)
  return { signerAddress: row.address as Address, nonces: new Map(bound.map((orderId, i) => [orderId, first + BigInt(i)])) }
}
