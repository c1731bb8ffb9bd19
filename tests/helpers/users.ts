import { randomBytes, randomUUID } from 'node:crypto'
import type { DbOrTx } from '@/db/client'
import { users } from '@/db/schema/users'
import type { SessionToCheck } from '@/lib/web/auth/ClaimedSessionUser'
import type { SessionUser, UserRole } from '@/lib/web/auth/SessionUser'

// TEST ONLY: users for the integration tests, as the session would present them.

export type TestUsers = { staff: SessionUser; otherStaff: SessionUser; admin: SessionUser }

/** Three fixed users (two staff, one admin); once per test database. */
export async function insertTestUsers(db: DbOrTx): Promise<TestUsers> {
  const rows = await db
    .insert(users)
    .values([
      { email: 'staff@mintdesk.test', name: 'Staff', role: 'staff' },
      { email: 'other-staff@mintdesk.test', name: 'Other Staff', role: 'staff' },
      { email: 'admin@mintdesk.test', name: 'Admin', role: 'admin' },
    ])
    .returning({ id: users.id, email: users.email, role: users.role })
  const [staff, otherStaff, admin] = rows
  if (!staff || !otherStaff || !admin) throw new Error('insertTestUsers: missing rows')
  return { staff, otherStaff, admin }
}

/** One more user with a fresh email, as often as a test needs. */
export async function insertUser(db: DbOrTx, role: UserRole = 'staff'): Promise<{ id: string; email: string }> {
  const email = `${role}-${randomBytes(4).toString('hex')}@mintdesk.test`
  const [row] = await db.insert(users).values({ email, name: email, role }).returning({ id: users.id })
  if (!row) throw new Error('no user')
  return { id: row.id, email }
}

/**
 * A test user as the intake checks it against the users table (createMintOrder's
 * `session`): the session_version a fresh row has (0) unless told, and the user's own role
 * as the one allowed unless told, so the check create_mint_order makes really runs and a
 * test that changed the row sees it refuse.
 */
export function intakeSession(
  user: SessionUser,
  p: { sessionVersion?: number; sessionId?: string; allowedRoles?: readonly UserRole[] } = {},
): SessionToCheck {
  return {
    id: user.id,
    email: user.email,
    sessionVersion: p.sessionVersion ?? 0,
    sessionId: p.sessionId ?? randomUUID(),
    allowedRoles: p.allowedRoles ?? [user.role],
  }
}
