import { and, eq } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { loginFailures } from '@/db/schema/users'
import type { LoginAttempt } from './beginLoginAttempt'

export type ClearLoginFailuresParameters = {
  /** the attempt beginLoginAttempt let through, whose password was right */
  attempt: LoginAttempt
}

/**
 * A sign-in succeeded: its attempt, and the earlier failures of the same account from the
 * same source (the account holder's own typos), no longer count. Failures of that account
 * from other sources stay (they may be someone else's guesses), and so do the source's
 * failures at other accounts.
 */
export async function clearLoginFailures(db: Db, { attempt }: ClearLoginFailuresParameters): Promise<void> {
  await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.accountKey, attempt.accountKey), eq(loginFailures.source, attempt.source)))
}
