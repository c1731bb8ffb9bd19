import type { DbOrTx } from '@/db/client'
import { users } from '@/db/schema/users'
import type { SessionUser } from '@/lib/auth/SessionUser'

// TEST ONLY: users for the mint tests, as the session would present them.

export type TestUsers = { staff: SessionUser; otherStaff: SessionUser; admin: SessionUser }

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
