import { asc } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { allowedRecipients } from '@/db/schema/controls'
import type { ApiRecipientChoices } from '@/lib/controls/apiTypes'

/** The addresses mints may go to, by label then address, checksummed: what the mint form offers staff. */
export async function listRecipientChoices(db: DbOrTx): Promise<ApiRecipientChoices> {
  const rows = await db
    .select({ address: allowedRecipients.address, label: allowedRecipients.label })
    .from(allowedRecipients)
    .orderBy(asc(allowedRecipients.label), asc(allowedRecipients.address))
  return { items: rows.map((r) => ({ address: getAddress(r.address), label: r.label })) }
}
