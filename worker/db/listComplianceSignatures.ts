import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import type { StoredSignature } from './listOrderSignatures'

export type ListComplianceSignaturesParameters = { ids: readonly string[] }

/**
 * The approvers' stored signatures of the compliance operations, by operation id (none: []), each with the
 * user its key is bound to now (user_signing_keys, read here: not the row's user_id). `orderId` of each is
 * its operation's id.
 */
export async function listComplianceSignatures(
  db: DbOrTx,
  { ids }: ListComplianceSignaturesParameters,
): Promise<Map<string, StoredSignature[]>> {
  const byOperation = new Map<string, StoredSignature[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byOperation
  const rows = await db.execute<{
    operation_id: string
    user_id: string
    signer_address: string
    signature: string
    key_user_id: string | null
  }>(sql`
    select s.operation_id::text as operation_id, s.user_id::text as user_id, s.signer_address, s.signature,
      k.user_id::text as key_user_id
    from compliance_signatures s left join user_signing_keys k on k.address = lower(s.signer_address)
    where s.operation_id = any(${uuidArraySql(ids)})
    order by s.operation_id, s.signed_at`)
  for (const r of rows)
    byOperation.get(r.operation_id)?.push({
      orderId: r.operation_id,
      userId: r.user_id,
      signerAddress: r.signer_address,
      signature: r.signature,
      keyUserId: r.key_user_id,
    })
  return byOperation
}
