import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ListOrderSignaturesParameters = { orderIds: readonly string[] }

/** A stored approval, with the user its key is bound to now (null: the key is bound to nobody). */
export type StoredSignature = {
  orderId: string
  /** the user the web recorded as the signer */
  userId: string
  signerAddress: string
  signature: string
  /** the user_signing_keys binding of signerAddress, read here, not the row's userId */
  keyUserId: string | null
}

/** The stored approver signatures of the orders, by order id (an order without any maps to []). */
export async function listOrderSignatures(
  db: DbOrTx,
  { orderIds }: ListOrderSignaturesParameters,
): Promise<Map<string, StoredSignature[]>> {
  const byOrder = new Map<string, StoredSignature[]>(orderIds.map((id) => [id, []]))
  if (orderIds.length === 0) return byOrder
  const rows = await db.execute<{
    order_id: string
    user_id: string
    signer_address: string
    signature: string
    key_user_id: string | null
  }>(sql`
    select s.order_id::text as order_id, s.user_id::text as user_id, s.signer_address, s.signature,
      k.user_id::text as key_user_id
    from mint_order_signatures s left join user_signing_keys k on k.address = lower(s.signer_address)
    where s.order_id = any(${`{${orderIds.join(',')}}`}::uuid[])
    order by s.order_id, s.signed_at`)
  for (const r of rows)
    byOrder.get(r.order_id)?.push({
      orderId: r.order_id,
      userId: r.user_id,
      signerAddress: r.signer_address,
      signature: r.signature,
      keyUserId: r.key_user_id,
    })
  return byOrder
}
