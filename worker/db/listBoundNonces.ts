import { sql } from 'drizzle-orm'
import type { Address } from 'viem'
import type { DbOrTx } from '@/db/client'

export type ListBoundNoncesParameters = {
  orderIds: readonly string[]
  /** FOR UPDATE of the signer_nonces rows: the store of a batch holds them against a release */
  lock?: boolean
}

export type BoundNonce = { signerAddress: Address; nonce: bigint }

/**
 * The nonce each order holds `reserved` for its mint and has not yet stored a signature
 * for (a batch reserved it, then its signing failed or the worker died): its next attempt
 * signs THIS nonce again, never a new one (invariant 3: no nonce lost, none reused).
 */
export async function listBoundNonces(
  db: DbOrTx,
  { orderIds, lock = false }: ListBoundNoncesParameters,
): Promise<Map<string, BoundNonce>> {
  if (orderIds.length === 0) return new Map()
  const ids = sql`${`{${orderIds.join(',')}}`}::uuid[]`
  const rows = await db.execute<{ order_id: string; signer_address: string; nonce: string }>(sql`
    select sn.order_id::text as order_id, sn.signer_address, sn.nonce::text as nonce
    from signer_nonces sn
    where sn.order_id = any(${ids}) and sn.use = 'mint' and sn.state = 'reserved'
    order by sn.signer_address, sn.nonce
    ${lock ? sql`for update` : sql``}`)
  // signer addresses are stored checksummed, as registerSigner wrote them
  return new Map(rows.map((r) => [r.order_id, { signerAddress: r.signer_address as Address, nonce: BigInt(r.nonce) }]))
}
