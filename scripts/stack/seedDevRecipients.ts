import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type SeedDevRecipientsParameters = { log?: (line: string) => void }

export type SeedDevRecipientsReturnType = { seeded: number }

/**
 * anvil's dev accounts 1 to 9 (the standard test mnemonic "test test ... junk",
 * m/44'/60'/0'/0/1..9; account 0 deploys the token), lower case as stored.
 * seedDevRecipients.int.test.ts derives them from the mnemonic.
 */
export const DEV_RECIPIENTS = [
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
  '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65',
  '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc',
  '0x976ea74026e726554db657fa54763abd0c3a0aa9',
  '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
  '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
  '0xa0ee7a142d267c1f36714e4a8f75612f20a79720',
] as const

/**
 * The local stack's allowlist: anvil's accounts 1 to 9, labelled "dev customer N", so a
 * new user can mint to them at once. Once: an allowlist that has any address already is
 * left alone (what an admin removed stays removed). Both limits stay unset (unlimited).
 * Dev only: production never calls it (scripts/stack/startStack.ts).
 */
export async function seedDevRecipients(
  db: DbOrTx,
  p: SeedDevRecipientsParameters = {},
): Promise<SeedDevRecipientsReturnType> {
  const log = p.log ?? (() => {})
  const rows = DEV_RECIPIENTS.map((address, i) => ({ address, label: `dev customer ${i + 1}` }))
  const inserted = await db.execute<{ address: string }>(sql`
    insert into allowed_recipients (address, label)
    select r.address, r.label from json_to_recordset(${JSON.stringify(rows)}::json) as r(address text, label text)
     where not exists (select 1 from allowed_recipients)
    on conflict (address) do nothing
    returning address`)
  if (inserted.length > 0)
    log(
      `dev recipients: anvil's accounts 1 to ${inserted.length} allowed ("dev customer N"); no mint limits set (unlimited)`,
    )
  else log('dev recipients: not seeded (the allowlist has addresses already)')
  return { seeded: inserted.length }
}
