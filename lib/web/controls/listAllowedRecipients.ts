import { asc, eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { allowedRecipients } from '@/db/schema/controls'
import { users } from '@/db/schema/users'
import type { ApiAllowedRecipient } from '@/lib/controls/apiTypes'

export type ListAllowedRecipientsReturnType = { items: ApiAllowedRecipient[] }

/** The recipient allowlist, by label then address; addresses checksummed, who added each by email. */
export async function listAllowedRecipients(db: DbOrTx): Promise<ListAllowedRecipientsReturnType> {
  const rows = await db
    .select({
      address: allowedRecipients.address,
      label: allowedRecipients.label,
      addedBy: users.email,
      addedAt: allowedRecipients.addedAt,
    })
    .from(allowedRecipients)
    .leftJoin(users, eq(users.id, allowedRecipients.addedBy))
    .orderBy(asc(allowedRecipients.label), asc(allowedRecipients.address))
  return {
    items: rows.map((r) => ({
      address: getAddress(r.address),
      label: r.label,
      addedBy: r.addedBy,
      addedAt: r.addedAt.toISOString(),
    })),
  }
}
