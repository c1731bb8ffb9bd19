import { eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { allowedRecipients } from '@/db/schema/controls'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import type { ApiRemovedRecipient } from '@/lib/controls/apiTypes'
import type { AppliedChange } from '@/lib/controls/appliedChange'
import { NotFoundError } from '@/lib/web/errors/resource'

export type RemoveAllowedRecipientParameters = {
  address: string
  actor: AdminActor
  /** the control change this applies (its id and author), named in the audit row; `actor` confirmed it */
  change?: AppliedChange
}

export type RemoveAllowedRecipientReturnType = ApiRemovedRecipient

/**
 * Takes an address off the recipient allowlist, with its audit row, in one transaction (a
 * savepoint in the caller's: the apply step of a confirmed `recipient.remove` change).
 * Orders to it that are not signed yet are then refused by the worker before signing
 * (and by approval); what is already signed or mined stays. Not listed: 404.
 */
export async function removeAllowedRecipient(
  db: DbOrTx,
  p: RemoveAllowedRecipientParameters,
): Promise<RemoveAllowedRecipientReturnType> {
  const address = p.address.toLowerCase()
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(allowedRecipients).where(eq(allowedRecipients.address, address)).returning()
    if (!row) throw new NotFoundError({ what: 'Recipient' })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'recipient.remove',
      targetType: 'recipient',
      targetId: getAddress(address),
      detail: { label: row.label, ...p.change },
    })
    return { address: getAddress(address), label: row.label, removed: true }
  })
}
