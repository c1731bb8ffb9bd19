import { eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { allowedRecipients } from '@/db/schema/controls'
import { addAllowedRecipient } from '@/lib/web/controls/addAllowedRecipient'
import { ValidationError } from '@/lib/web/errors/request'
import { ConflictError } from '@/lib/web/errors/resource'
import type { ControlChangeStep } from './controlChangeStep'

/**
 * `recipient.add` `{ address, label }`: puts an address on the recipient allowlist. Refused:
 * the token contract (422 on `address`), an address already listed (409 conflict).
 */
export const recipientAddStep: ControlChangeStep<'recipient.add'> = {
  check: async (db, { params, context }) => {
    await refuseUnlessAddable(db, { address: params.address, tokenAddress: context.tokenAddress })
  },
  apply: async (tx, { params, context, changeId, author, confirmer }) => {
    await refuseUnlessAddable(tx, { address: params.address, tokenAddress: context.tokenAddress })
    return addAllowedRecipient(tx, {
      address: params.address,
      label: params.label,
      actor: confirmer,
      tokenAddress: context.tokenAddress,
      change: { changeId, requestedBy: author.email },
    })
  },
}

async function refuseUnlessAddable(db: DbOrTx, p: { address: string; tokenAddress?: string }): Promise<void> {
  const address = p.address.toLowerCase()
  if (p.tokenAddress && address === p.tokenAddress.toLowerCase()) {
    throw new ValidationError([{ path: 'address', message: 'The token contract itself cannot receive mints.' }])
  }
  const [listed] = await db
    .select({ address: allowedRecipients.address })
    .from(allowedRecipients)
    .where(eq(allowedRecipients.address, address))
  if (listed) throw new ConflictError(`${getAddress(address)} is already on the recipient allowlist.`)
}
