import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { type DevKeyName, devKey } from '@/lib/keys/devKeys'
import { signingKeyText } from '@/lib/web/approvals/signingKeyText'

/** Whose dev key is which (API.md "Keys people hold"); a user the stack has not seeded is skipped. */
const DEV_KEY_HOLDERS: readonly [string, DevKeyName][] = [
  ['approver@mintdesk.local', 'approver'],
  ['approver2@mintdesk.local', 'approver2'],
  ['admin@mintdesk.local', 'admin'],
  ['admin2@mintdesk.local', 'admin2'],
]

/**
 * Dev only (the local stack): binds the dev signing keys to their users, each with its own
 * personal_sign of the user's binding text, as POST /api/me/signing-key would. The keys are
 * approvers and admins on chain from the deploy (scripts/stack/deployGoldMinter.ts). Once: a
 * key bound already is left alone.
 */
export async function bindDevSigningKeys(db: Db, p: { log?: (line: string) => void } = {}): Promise<void> {
  for (const [email, name] of DEV_KEY_HOLDERS) {
    const [user] = await db.execute<{ id: string }>(sql`select id::text as id from users where email = ${email}`)
    if (!user) continue
    const key = devKey(name)
    const signature = await key.signMessage({ message: signingKeyText({ id: user.id, email }) })
    await db.execute(sql`
      insert into user_signing_keys (address, user_id, binding_signature)
      values (${key.address.toLowerCase()}, ${user.id}::uuid, ${signature}) on conflict (address) do nothing`)
    p.log?.(`dev signing key ${key.address} (index of ${name}) bound to ${email}`)
  }
}
