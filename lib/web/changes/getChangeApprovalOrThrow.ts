import { eq, sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import { isUuid } from '@/lib/mint/isUuid'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiChangeApproval } from './apiTypes'
import { onChainChangeTypedData } from './onChainChangeTypedData'
import { parseOnChainChange } from './proposeOnChainChange'

/**
 * What an admin signs to confirm a change that lives on chain: its ControlChange rebuilt from its
 * kind and params as typed data, GoldMinter's admin threshold, the signatures so far. Unknown id,
 * or a change of the desk's own rows (nothing to sign): 404.
 */
export async function getChangeApprovalOrThrow(
  db: DbOrTx,
  p: { changeId: string; minter: MinterReader },
): Promise<ApiChangeApproval> {
  if (!isUuid(p.changeId)) throw new NotFoundError({ what: 'Change' })
  const id = p.changeId.toLowerCase()
  const [row] = await db.select().from(controlChanges).where(eq(controlChanges.id, id))
  if (!row?.deadline) throw new NotFoundError({ what: 'Change' })
  const change = parseOnChainChange({ kind: row.kind, params: row.params })
  const signatures = await db.execute<{ signer_address: string; email: string; signed_at: Date | string }>(sql`
    select s.signer_address, u.email, s.signed_at from control_change_signatures s join users u on u.id = s.user_id
    where s.change_id = ${id}::uuid order by s.signed_at`)
  return {
    typedData: onChainChangeTypedData({ changeId: id, change, deadline: row.deadline, minter: p.minter }),
    required: await p.minter.adminThreshold(),
    signatures: signatures.map((s) => ({
      signer: getAddress(s.signer_address),
      user: s.email,
      at: new Date(s.signed_at).toISOString(),
    })),
  }
}
