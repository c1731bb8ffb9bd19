import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import type { StoredSignature } from './listOrderSignatures'

export type ListControlChangeSignaturesParameters = { ids: readonly string[] }

/**
 * The admins' stored signatures of the control changes, by change id (none: []), each with the
 * user its key is bound to now (user_signing_keys, read here: not the row's user_id). `orderId`
 * of each is its change's id.
 */
export async function listControlChangeSignatures(
  db: DbOrTx,
  { ids }: ListControlChangeSignaturesParameters,
): Promise<Map<string, StoredSignature[]>> {
  const byChange = new Map<string, StoredSignature[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byChange
  const rows = await db.execute<{
    change_id: string
    user_id: string
    signer_address: string
    signature: string
    key_user_id: string | null
  }>(sql`
    select s.change_id::text as change_id, s.user_id::text as user_id, s.signer_address, s.signature,
      k.user_id::text as key_user_id
    from control_change_signatures s left join user_signing_keys k on k.address = lower(s.signer_address)
    where s.change_id = any(${uuidArraySql(ids)})
    order by s.change_id, s.signed_at`)
  for (const r of rows)
    byChange.get(r.change_id)?.push({
      orderId: r.change_id,
      userId: r.user_id,
      signerAddress: r.signer_address,
      signature: r.signature,
      keyUserId: r.key_user_id,
    })
  return byChange
}
