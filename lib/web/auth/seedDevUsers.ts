import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type UserRole, users } from '@/db/schema/users'
import { hashPassword } from '@/lib/auth/hashPassword'
import { verifyPassword } from './verifyPassword'

export type SeedDevUsersParameters = {
  staffPassword: string
  approverPassword: string
  adminPassword: string
  /** the second admin's, who confirms the first admin's control changes */
  admin2Password: string
  /** the second approver's (`approver2@mintdesk.local`, for orders that need two approvals); seeded only when given */
  approver2Password?: string
  /** the auditor's (`auditor@mintdesk.local`: reads what an admin reads, changes nothing); seeded only when given */
  auditorPassword?: string
}

export type SeedDevUsersReturnType = {
  users: { id: string; email: string; role: UserRole; created: boolean; passwordChanged: boolean }[]
}

export const DEV_STAFF_EMAIL = 'staff@mintdesk.local'
export const DEV_APPROVER_EMAIL = 'approver@mintdesk.local'
export const DEV_APPROVER2_EMAIL = 'approver2@mintdesk.local'
export const DEV_ADMIN_EMAIL = 'admin@mintdesk.local'
export const DEV_ADMIN2_EMAIL = 'admin2@mintdesk.local'
export const DEV_AUDITOR_EMAIL = 'auditor@mintdesk.local'

/**
 * Creates (or brings up to date) the dev users of the local stack and the tests:
 * `staff@mintdesk.local` (staff, "Vault Staff"), `approver@mintdesk.local` (approver,
 * "Approver": the second person of four eyes), `approver2@mintdesk.local` (approver, "Second Approver", when
 * its password is given: the second approval of a large order), `admin@mintdesk.local` (admin, "Admin") and
 * `admin2@mintdesk.local` (admin, "Second Admin": confirms the first's control changes) and
 * `auditor@mintdesk.local` (auditor, "Auditor", when its password is given). Idempotent: the role and
 * name are reset, and the password hash is replaced only when the password changed (so a restart does not rehash for
 * nothing). For dev and tests only: scripts/start.ts never calls it in production mode.
 */
export async function seedDevUsers(
  db: DbOrTx,
  {
    staffPassword,
    approverPassword,
    adminPassword,
    admin2Password,
    approver2Password,
    auditorPassword,
  }: SeedDevUsersParameters,
): Promise<SeedDevUsersReturnType> {
  const wanted: { email: string; name: string; role: UserRole; password: string }[] = [
    { email: DEV_STAFF_EMAIL, name: 'Vault Staff', role: 'staff', password: staffPassword },
    { email: DEV_APPROVER_EMAIL, name: 'Approver', role: 'approver', password: approverPassword },
    ...(approver2Password === undefined
      ? []
      : [
          {
            email: DEV_APPROVER2_EMAIL,
            name: 'Second Approver',
            role: 'approver' as const,
            password: approver2Password,
          },
        ]),
    { email: DEV_ADMIN_EMAIL, name: 'Admin', role: 'admin', password: adminPassword },
    { email: DEV_ADMIN2_EMAIL, name: 'Second Admin', role: 'admin', password: admin2Password },
    ...(auditorPassword === undefined
      ? []
      : [{ email: DEV_AUDITOR_EMAIL, name: 'Auditor', role: 'auditor' as const, password: auditorPassword }]),
  ]
  const result: SeedDevUsersReturnType['users'] = []
  for (const w of wanted) {
    const [existing] = await db.select().from(users).where(eq(users.email, w.email)).limit(1)
    const keepHash =
      existing?.passwordHash != null && (await verifyPassword({ password: w.password, hash: existing.passwordHash }))
    const passwordHash =
      keepHash && existing?.passwordHash ? existing.passwordHash : await hashPassword({ password: w.password })
    const [row] = await db
      .insert(users)
      .values({ email: w.email, name: w.name, role: w.role, passwordHash })
      .onConflictDoUpdate({ target: users.email, set: { name: w.name, role: w.role, passwordHash } })
      .returning({ id: users.id })
    result.push({ id: row.id, email: w.email, role: w.role, created: !existing, passwordChanged: !keepHash })
  }
  return { users: result }
}
