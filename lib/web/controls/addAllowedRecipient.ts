import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { allowedRecipients } from '@/db/schema/controls'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import type { ApiAllowedRecipient } from '@/lib/controls/apiTypes'
import type { AppliedChange } from '@/lib/controls/appliedChange'
import { isUuid } from '@/lib/mint/isUuid'
import { ValidationError } from '@/lib/web/errors/request'
import { ConflictError } from '@/lib/web/errors/resource'

export type AddAllowedRecipientParameters = {
  /** a valid address (the route's zod checked hex, checksum and not zero) */
  address: string
  label: string
  actor: AdminActor
  /** the token contract (TOKEN_ADDRESS): never a recipient */
  tokenAddress?: string
  /** the control change this applies (its id and author), named in the audit row; `actor` confirmed it */
  change?: AppliedChange
}

export type AddAllowedRecipientReturnType = ApiAllowedRecipient

/**
 * Puts an address on the recipient allowlist, with its audit row, in one transaction (a
 * savepoint in the caller's: the apply step of a confirmed `recipient.add` change).
 * Stored lower case (one address, one row), answered checksummed. The token contract is
 * refused (422 on `address`); an address already listed is a 409 conflict, its label
 * unchanged.
 */
export async function addAllowedRecipient(
  db: DbOrTx,
  p: AddAllowedRecipientParameters,
): Promise<AddAllowedRecipientReturnType> {
  const address = p.address.toLowerCase()
  if (p.tokenAddress && address === p.tokenAddress.toLowerCase()) {
    throw new ValidationError([{ path: 'address', message: 'The token contract itself cannot receive mints.' }])
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(allowedRecipients)
      .values({ address, label: p.label, addedBy: isUuid(p.actor.id) ? p.actor.id : null })
      .onConflictDoNothing()
      .returning()
    if (!row) throw new ConflictError(`${getAddress(address)} is already on the recipient allowlist.`)
    await recordAudit(tx, {
      actor: p.actor,
      action: 'recipient.add',
      targetType: 'recipient',
      targetId: getAddress(address),
      detail: { label: p.label, ...p.change },
    })
    return {
      address: getAddress(address),
      label: row.label,
      addedBy: p.actor.email,
      addedAt: row.addedAt.toISOString(),
    }
  })
}
