import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { allowedRecipients } from '@/db/schema/controls'
import { removeAllowedRecipient } from '@/lib/web/controls/removeAllowedRecipient'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ControlChangeStep } from './controlChangeStep'

/**
 * `recipient.remove` `{ address }`: takes an address off the recipient allowlist. Refused
 * while it is not listed (404), at confirm time too (removed by another change meanwhile).
 */
export const recipientRemoveStep: ControlChangeStep<'recipient.remove'> = {
  check: async (db, { params }) => {
    await refuseUnlessListed(db, { address: params.address })
  },
  apply: async (tx, { params, changeId, author, confirmer }) =>
    removeAllowedRecipient(tx, {
      address: params.address,
      actor: confirmer,
      change: { changeId, requestedBy: author.email },
    }),
}

async function refuseUnlessListed(db: DbOrTx, p: { address: string }): Promise<void> {
  const [listed] = await db
    .select({ address: allowedRecipients.address })
    .from(allowedRecipients)
    .where(eq(allowedRecipients.address, p.address.toLowerCase()))
  if (!listed) throw new NotFoundError({ what: 'Recipient' })
}
