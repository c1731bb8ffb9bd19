import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { hasLiveConfirmJobSql } from '@/lib/jobs/hasLiveConfirmJobSql'

export type ListOpenNoncesParameters = { signerAddress: string }

export type OpenNonce = {
  nonce: bigint
  state: 'reserved' | 'signed' | 'released'
  use: 'mint' | 'gap_fill'
  orderId: string | null
  orderStatus: string | null
  /** the order's own order_confirm job, or its signer's signer_confirm, follows it: it owns this nonce */
  confirming: boolean
}

/** A signer's nonces not yet known mined, lowest first, with what the nonce health check needs to judge them. */
export async function listOpenNonces(db: DbOrTx, { signerAddress }: ListOpenNoncesParameters): Promise<OpenNonce[]> {
  const rows = await db.execute<{
    nonce: bigint
    state: OpenNonce['state']
    use: OpenNonce['use']
    order_id: string | null
    order_status: string | null
    confirming: boolean
  }>(sql`
    select sn.nonce, sn.state, sn.use, sn.order_id, mo.status as order_status,
      ${hasLiveConfirmJobSql({ orderId: sql`sn.order_id`, signerAddress: sql`sn.signer_address`, orderStatus: sql`mo.status` })} as confirming
    from signer_nonces sn
    left join mint_orders mo on mo.id = sn.order_id
    where sn.signer_address = ${signerAddress} and sn.state <> 'mined'
    order by sn.nonce`)
  return rows.map((r) => ({
    nonce: BigInt(r.nonce),
    state: r.state,
    use: r.use,
    orderId: r.order_id,
    orderStatus: r.order_status,
    confirming: r.confirming,
  }))
}
