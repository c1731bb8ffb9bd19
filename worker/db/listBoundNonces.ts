import { sql } from 'drizzle-orm'
import type { Address } from 'viem'
import type { DbOrTx } from '@/db/client'
import type { OperationKindName } from '@/db/schema'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import { operationColumns } from '../operations/operationColumns'

export type ListBoundNoncesParameters = {
  /** the kind of every operation named (its reference column of signer_nonces) */
  kind: OperationKindName
  ids: readonly string[]
  /** FOR UPDATE of the signer_nonces rows: the store of a batch holds them against a release */
  lock?: boolean
}

export type BoundNonce = { signerAddress: Address; nonce: bigint }

/**
 * The nonce each operation holds `reserved` for its call and has not yet stored a signature
 * for (a batch reserved it, then its signing failed or the worker died): its next attempt
 * signs THIS nonce again, never a new one (invariant 3: no nonce lost, none reused).
 */
export async function listBoundNonces(
  db: DbOrTx,
  { kind, ids, lock = false }: ListBoundNoncesParameters,
): Promise<Map<string, BoundNonce>> {
  if (ids.length === 0) return new Map()
  const reference = sql.identifier(operationColumns[kind].reference)
  const rows = await db.execute<{ id: string; signer_address: string; nonce: string }>(sql`
    select sn.${reference}::text as id, sn.signer_address, sn.nonce::text as nonce
    from signer_nonces sn
    where sn.${reference} = any(${uuidArraySql(ids)}) and sn.use = ${kind}::nonce_use and sn.state = 'reserved'
    order by sn.signer_address, sn.nonce
    ${lock ? sql`for update` : sql``}`)
  // signer addresses are stored checksummed, as registerSigner wrote them
  return new Map(rows.map((r) => [r.id, { signerAddress: r.signer_address as Address, nonce: BigInt(r.nonce) }]))
}
