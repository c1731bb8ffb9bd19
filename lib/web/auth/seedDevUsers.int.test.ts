import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '@/db/schema/users'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import {
  DEV_ADMIN_EMAIL,
  DEV_ADMIN2_EMAIL,
  DEV_APPROVER_EMAIL,
  DEV_AUDITOR_EMAIL,
  DEV_STAFF_EMAIL,
  seedDevUsers,
} from './seedDevUsers'
import { verifyPassword } from './verifyPassword'

describe('seedDevUsers', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
  })
  afterAll(async () => {
    await t.drop()
  })

  async function row(email: string) {
    const [r] = await t.db.select().from(users).where(eq(users.email, email))
    return r
  }

  const passwords = {
    staffPassword: 'staff-dev-password',
    approverPassword: 'approver-dev-password',
    adminPassword: 'admin-dev-password',
    admin2Password: 'admin2-dev-password',
  }

  it('creates the staff, approver and both admin users with hashed passwords', async () => {
    const result = await seedDevUsers(t.db, passwords)
    expect(result.users.map((u) => [u.email, u.role, u.created])).toEqual([
      [DEV_STAFF_EMAIL, 'staff', true],
      [DEV_APPROVER_EMAIL, 'approver', true],
      [DEV_ADMIN_EMAIL, 'admin', true],
      [DEV_ADMIN2_EMAIL, 'admin', true],
    ])
    const staff = await row(DEV_STAFF_EMAIL)
    expect(staff).toMatchObject({ name: 'Vault Staff', role: 'staff' })
    expect(staff.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(await verifyPassword({ password: 'staff-dev-password', hash: staff.passwordHash ?? '' })).toBe(true)
    const admin = await row(DEV_ADMIN_EMAIL)
    expect(admin).toMatchObject({ name: 'Admin', role: 'admin' })
    expect(await verifyPassword({ password: 'admin-dev-password', hash: admin.passwordHash ?? '' })).toBe(true)
    const admin2 = await row(DEV_ADMIN2_EMAIL)
    expect(admin2).toMatchObject({ name: 'Second Admin', role: 'admin' })
    expect(await verifyPassword({ password: 'admin2-dev-password', hash: admin2.passwordHash ?? '' })).toBe(true)
    const approver = await row(DEV_APPROVER_EMAIL)
    expect(approver).toMatchObject({ name: 'Approver', role: 'approver' })
    expect(await verifyPassword({ password: 'approver-dev-password', hash: approver.passwordHash ?? '' })).toBe(true)
  })

  it('is idempotent: same passwords keep the same hash and id', async () => {
    const before = await row(DEV_STAFF_EMAIL)
    const result = await seedDevUsers(t.db, passwords)
    expect(result.users.every((u) => !u.created && !u.passwordChanged)).toBe(true)
    const after = await row(DEV_STAFF_EMAIL)
    expect(after.id).toBe(before.id)
    expect(after.passwordHash).toBe(before.passwordHash)
  })

  it('updates the hash when a password changed, and resets a changed role or name', async () => {
    await t.db.update(users).set({ role: 'admin', name: 'Mallory' }).where(eq(users.email, DEV_STAFF_EMAIL))
    const result = await seedDevUsers(t.db, { ...passwords, staffPassword: 'a-new-staff-password' })
    expect(result.users.find((u) => u.email === DEV_STAFF_EMAIL)?.passwordChanged).toBe(true)
    expect(result.users.find((u) => u.email === DEV_ADMIN_EMAIL)?.passwordChanged).toBe(false)
    const staff = await row(DEV_STAFF_EMAIL)
    expect(staff).toMatchObject({ role: 'staff', name: 'Vault Staff' })
    expect(await verifyPassword({ password: 'a-new-staff-password', hash: staff.passwordHash ?? '' })).toBe(true)
    expect(await verifyPassword({ password: 'staff-dev-password', hash: staff.passwordHash ?? '' })).toBe(false)
  })
})

describe('seedDevUsers: the auditor', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
  })
  afterAll(async () => {
    await t?.drop()
  })

  it('seeds auditor@mintdesk.local as an auditor when its password is given, and only then', async () => {
    const base = {
      staffPassword: 'staff-dev-password',
      approverPassword: 'approver-dev-password',
      adminPassword: 'admin-dev-password',
      admin2Password: 'admin2-dev-password',
    }
    const without = await seedDevUsers(t.db, base)
    expect(without.users.map((u) => u.email)).not.toContain(DEV_AUDITOR_EMAIL)
    const result = await seedDevUsers(t.db, { ...base, auditorPassword: 'auditor-dev-password' })
    expect(result.users.find((u) => u.email === DEV_AUDITOR_EMAIL)).toMatchObject({ role: 'auditor', created: true })
    const [auditor] = await t.db.select().from(users).where(eq(users.email, DEV_AUDITOR_EMAIL))
    expect(auditor).toMatchObject({ name: 'Auditor', role: 'auditor' })
    expect(await verifyPassword({ password: 'auditor-dev-password', hash: auditor?.passwordHash ?? '' })).toBe(true)
  })
})
