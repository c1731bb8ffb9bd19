import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { auditLog } from '@/db/schema'
import { users } from '@/db/schema/users'
import { isBaseError } from '@/lib/web/errors'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { listUsers } from './listUsers'
import { updateUser } from './updateUser'

// The admins' user operations, as the web's database role (its grants are production's).
let t: TestDatabase
let web: DbClient
let admin: { id: string; email: string }
let staffId: string

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  const rows = await t.db
    .insert(users)
    .values([
      { email: 'admin@mintdesk.test', name: 'Admin', role: 'admin' },
      { email: 'staff@mintdesk.test', name: 'Staff', role: 'staff', passwordHash: 'scrypt$secret' },
    ])
    .returning({ id: users.id, email: users.email })
  admin = rows[0] ?? { id: '', email: '' }
  staffId = rows[1]?.id ?? ''
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
})

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (isBaseError(e) ? e.code : String(e)),
  )
const versionOf = async (id: string) =>
  (await t.db.select({ v: users.sessionVersion }).from(users).where(eq(users.id, id)))[0]?.v
const audits = () => t.db.select().from(auditLog).orderBy(desc(auditLog.id))

describe('updateUser and listUsers', () => {
  it('lists every user without a password hash', async () => {
    const { items } = await listUsers(web.db)
    expect(items.map((u) => [u.email, u.role, u.disabled, u.sessionVersion])).toEqual([
      ['admin@mintdesk.test', 'admin', false, 0],
      ['staff@mintdesk.test', 'staff', false, 0],
    ])
    expect(JSON.stringify(items)).not.toContain('scrypt')
  })

  it('a role change bumps the session version and is audited with from and to', async () => {
    const updated = await updateUser(web.db, { userId: staffId, change: { role: 'approver' }, actor: admin })
    expect(updated).toMatchObject({ id: staffId, role: 'approver', disabled: false, sessionVersion: 1 })
    const [row] = await audits()
    expect(row).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      action: 'user.role_change',
      targetType: 'user',
      targetId: staffId,
      detail: { email: 'staff@mintdesk.test', from: 'staff', to: 'approver' },
    })
  })

  it('disable and enable each bump the version and are audited; asking for what already is changes nothing', async () => {
    expect(await updateUser(web.db, { userId: staffId, change: { disabled: true }, actor: admin })).toMatchObject({
      disabled: true,
      sessionVersion: 2,
    })
    expect((await audits())[0]).toMatchObject({ action: 'user.disable', targetId: staffId })
    const before = (await audits()).length
    expect(
      await updateUser(web.db, { userId: staffId, change: { disabled: true, role: 'approver' }, actor: admin }),
    ).toMatchObject({ sessionVersion: 2 })
    expect((await audits()).length).toBe(before)
    expect(
      await updateUser(web.db, { userId: staffId, change: { disabled: false, role: 'staff' }, actor: admin }),
    ).toMatchObject({ disabled: false, role: 'staff', sessionVersion: 3 })
    expect(
      (await audits())
        .slice(0, 2)
        .map((a) => a.action)
        .sort(),
    ).toEqual(['user.enable', 'user.role_change'])
  })

  it('an admin may not disable or demote themselves (409 self_lockout), and nothing changes', async () => {
    expect(await codeOf(updateUser(web.db, { userId: admin.id, change: { disabled: true }, actor: admin }))).toBe(
      'self_lockout',
    )
    expect(await codeOf(updateUser(web.db, { userId: admin.id, change: { role: 'staff' }, actor: admin }))).toBe(
      'self_lockout',
    )
    expect(await codeOf(updateUser(web.db, { userId: admin.id, change: { role: 'approver' }, actor: admin }))).toBe(
      'self_lockout',
    )
    expect(await versionOf(admin.id)).toBe(0)
    // keeping what they are is fine
    expect(
      await updateUser(web.db, { userId: admin.id, change: { role: 'admin', disabled: false }, actor: admin }),
    ).toMatchObject({ sessionVersion: 0 })
  })

  it('an unknown or malformed id: 404', async () => {
    expect(
      await codeOf(
        updateUser(web.db, {
          userId: '00000000-0000-4000-8000-000000000000',
          change: { disabled: true },
          actor: admin,
        }),
      ),
    ).toBe('not_found')
    expect(await codeOf(updateUser(web.db, { userId: 'nope', change: { disabled: true }, actor: admin }))).toBe(
      'not_found',
    )
  })
})
