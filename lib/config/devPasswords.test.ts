import { describe, expect, it } from 'vitest'
import { devPasswords, devPasswordsByUser } from './devPasswords'

describe('devPasswords', () => {
  it("gives each dev user's variable, else its default, and the same by user", () => {
    const p = devPasswords({ DEV_ADMIN_PASSWORD: 'given-admin-password' })
    expect(p).toEqual({
      DEV_STAFF_PASSWORD: 'staff-dev-password',
      DEV_APPROVER_PASSWORD: 'approver-dev-password',
      DEV_APPROVER2_PASSWORD: 'approver2-dev-password',
      DEV_ADMIN_PASSWORD: 'given-admin-password',
      DEV_ADMIN2_PASSWORD: 'admin2-dev-password',
      DEV_AUDITOR_PASSWORD: 'auditor-dev-password',
    })
    expect(devPasswordsByUser(p)).toMatchObject({ admin: 'given-admin-password', auditor: 'auditor-dev-password' })
  })
})
