import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type ReleaseCancelledNoncesParameters = { signerAddress: string }

export type ReleasedNonce = { nonce: bigint; orderId: string }

/**
 * Hands back every nonce of the signer still bound (reserved or signed for its mint, not
 * mined, not yet taken over by a gap fill) to an order an admin cancelled (or a compliance
 * operation or a redemption an admin cancelled, its nonce of use compliance or redemption): signer_nonces
 * -> `released`, in the caller's transaction, so the nonce health check fills it with a
 * zero-value self-transfer (invariant 3). The web's cancel only marks the order; this
 * release is the worker's, since only the worker writes nonces (invariant 7;
 * docs/decisions/026-nonces-in-postgres.md).
 */
export async function releaseCancelledNonces(
  tx: Tx,
  { signerAddress }: ReleaseCancelledNoncesParameters,
): Promise<ReleasedNonce[]> {
  const rows = await tx.execute<{ nonce: string; order_id: string }>(sql`
    with mints as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from mint_orders mo
      where mo.id = sn.order_id and mo.status = 'cancelled'
        and sn.signer_address = ${signerAddress} and sn.state in ('reserved', 'signed')
        -- the order's own mint nonce; once a gap fill has taken it over (use gap_fill) it is settled
        and sn.use = 'mint'
      returning sn.nonce, sn.order_id as id
    ), compliance as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from compliance_operations co
      where co.id = sn.compliance_operation_id and co.status = 'cancelled'
        and sn.signer_address = ${signerAddress} and sn.state in ('reserved', 'signed') and sn.use = 'compliance'
      returning sn.nonce, sn.compliance_operation_id as id
    ), redemptions as (
      update signer_nonces sn set state = 'released', updated_at = now()
      from redemptions r
      where r.id = sn.redemption_id and r.status = 'cancelled'
        and sn.signer_address = ${signerAddress} and sn.state in ('reserved', 'signed') and sn.use = 'redemption'
      returning sn.nonce, sn.redemption_id as id
    )
    select nonce::text as nonce, id::text as order_id from mints
    union all select nonce::text, id::text from compliance
    union all select nonce::text, id::text from redemptions`)
  return rows.map((r) => ({ nonce: BigInt(r.nonce), orderId: r.order_id })).sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
}
