import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Tx } from '@/db/client'
import type { OperationKindName } from '@/db/schema'
import { signers } from '@/db/schema'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import { NoSignerError } from '@/worker/errors/signers'
import { operationColumns } from '../operations/operationColumns'

export type ReserveNoncesParameters = {
  chainId: number
  /** the signers this worker holds keys for */
  candidates: readonly Address[]
  /** the kind of every operation to bind (its table, and its reference column of signer_nonces) */
  kind: OperationKindName
  /** the operations to bind, in the order their nonces are handed out */
  ids: readonly string[]
  /** each candidate's mined transaction count (`latest`), read before this transaction: in flight = next_nonce - it */
  minedCounts: ReadonlyMap<Address, bigint>
  maxInFlight: number
  /**
   * writes the caller's rows about the binding (its 'nonce_reserved' events) in the same
   * round trip as the binding: issued together on the transaction's connection
   */
  recordBound?: (bound: { signerAddress: Address; nonces: ReadonlyMap<string, bigint> }) => Promise<unknown>
}

export type ReserveNoncesReturnType = {
  signerAddress: Address
  /** nonce by operation id, for the operations that got one (the first ones, up to the signer's room) */
  nonces: Map<string, bigint>
}

/**
 * Takes consecutive nonces of ONE signer for a batch, inside the caller's short
 * transaction (invariant 3): the signer row is locked FOR NO KEY UPDATE (SKIP LOCKED
 * first, the one with the most room below MAX_IN_FLIGHT_PER_SIGNER, so concurrent
 * batches spread over signers; if all are busy, wait for the roomiest), next_nonce +=
 * n, n signer_nonces rows `reserved` bound to their operations, and the operations' rows (the
 * kind's table) point to their signer and nonce. Nothing is signed here: the caller commits at
 * once, and the binding survives a crash (the operation's next attempt signs the same nonce). Returns
 * null when every signer is at its in-flight bound (nothing reserved).
 */
export async function reserveNonces(tx: Tx, p: ReserveNoncesParameters): Promise<ReserveNoncesReturnType | null> {
  if (p.candidates.length === 0) throw new NoSignerError(p.chainId)
  if (p.ids.length === 0) return null
  const eligible = and(
    eq(signers.active, true),
    eq(signers.chainId, p.chainId),
    inArray(signers.address, [...p.candidates]),
  )
  // pipelined: one round trip
  const [, seen] = await Promise.all([
    tx.execute(sql`set local lock_timeout = '10s'`),
    tx.select({ address: signers.address, nextNonce: signers.nextNonce }).from(signers).where(eligible),
  ])
  if (seen.length === 0) throw new NoSignerError(p.chainId)
  const room = (address: string, nextNonce: bigint) =>
    BigInt(p.maxInFlight) - (nextNonce - (p.minedCounts.get(address as Address) ?? nextNonce))
  const ranked = seen
    .filter((s) => room(s.address, s.nextNonce) > 0n)
    .sort((a, b) => Number(room(b.address, b.nextNonce) - room(a.address, a.nextNonce)))
  if (ranked.length === 0) return null

  const lockOne = async (address: string, skipLocked: boolean) =>
    (
      await tx
        .select({ address: signers.address, nextNonce: signers.nextNonce })
        .from(signers)
        .where(eq(signers.address, address))
        .for('no key update', skipLocked ? { skipLocked: true } : {})
    )[0]
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

  // From here the signer's row is locked until the caller commits: every other batch of this
  // signer waits, so the binding is ONE statement (the signer's counter, the nonce rows, the
  // operations' rows), pipelined with the caller's events: one round trip, then the commit.
  const bound = p.ids.slice(0, Number(free < BigInt(p.ids.length) ? free : BigInt(p.ids.length)))
  const first = row.nextNonce
  const nonces = new Map(bound.map((id, i) => [id, first + BigInt(i)]))
  const { table, reference } = operationColumns[p.kind]
  const signerAddress = row.address as Address
  const [updated] = await Promise.all([
    tx.execute<{ id: string }>(sql`
      with counter as (
        update signers set next_nonce = next_nonce + ${BigInt(bound.length)}, updated_at = now()
        where address = ${row.address} and next_nonce = ${first}
        returning address
      ), v as (
        select (${first}::bigint + o.i - 1) as nonce, o.id from counter, unnest(${uuidArraySql(bound)}) with ordinality as o(id, i)
      ), taken as (
        insert into signer_nonces (signer_address, nonce, use, ${sql.identifier(reference)}, state)
        select ${row.address}, v.nonce, ${p.kind}::nonce_use, v.id, 'reserved' from v
        returning nonce
      )
      update ${sql.identifier(table)} m set signer_address = ${row.address}, nonce = v.nonce, updated_at = now()
      from v where m.id = v.id
      returning m.id`),
    p.recordBound?.({ signerAddress, nonces }),
  ])
  // the row is ours, so the counter moved and every order got its nonce; anything else aborts the transaction
  if (updated.length !== bound.length)
    throw new Error(`binding ${bound.length} nonces of ${row.address} from ${first} bound ${updated.length} operations`)
  return { signerAddress, nonces }
}
