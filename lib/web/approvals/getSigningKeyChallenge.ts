import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ApiSigningKeyChallenge } from './apiTypes'
import { signingKeyText } from './signingKeyText'

/** GET /api/me/signing-key: the text to personal_sign, and the keys bound to the user so far. */
export async function getSigningKeyChallenge(
  db: Db,
  { user }: { user: Pick<SessionUser, 'id' | 'email'> },
): Promise<ApiSigningKeyChallenge> {
  const keys = await db.execute<{ address: string; bound_at: Date | string }>(sql`
    select address, bound_at from user_signing_keys where user_id = ${user.id}::uuid order by bound_at`)
  return {
    text: signingKeyText(user),
    keys: keys.map((k) => ({ address: getAddress(k.address), boundAt: new Date(k.bound_at).toISOString() })),
  }
}
