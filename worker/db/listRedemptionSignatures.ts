import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import type { StoredSignature } from './listOrderSignatures'

export type ListRedemptionSignaturesParameters = { ids: readonly string[] }

/**
 * The approvers' stored signatures of the redemptions, by redemption id (none: []), each with the user its key is
 * bound to now (user_signing_keys, read here: not the row's user_id). `orderId` of each is its redemption's id.
 */
export async function listRedemptionSignatures(
  db: DbOrTx,
  { ids }: ListRedemptionSignaturesParameters,
): Promise<Map<string, StoredSignature[]>> {
  const byRedemption = new Map<string, StoredSignature[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byRedemption
  const rows = await db.execute<{
    redemption_id: string
    user_id: string
    signer_address: string
    signature: string
    key_user_id: string | null
  }>(sql`
    select s.redemption_id::text as redemption_id, s.user_id::text as user_id, s.signer_address, s.signature,
      k.user_id::text as key_user_id
    from redemption_signatures s left join user_signing_keys k on k.address = lower(s.signer_address)
    where s.redemption_id = any(${uuidArraySql(ids)})
    order by s.redemption_id, s.signed_at`)
  for (const r of rows)
    byRedemption.get(r.redemption_id)?.push({
      orderId: r.redemption_id,
      userId: r.user_id,
      signerAddress: r.signer_address,
      signature: r.signature,
      keyUserId: r.key_user_id,
    })
  return byRedemption
}
