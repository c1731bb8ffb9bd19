/** The seeded dev users' passwords, by the variable that sets each (docs/api.md "Auth"). */
export type DevPasswords = {
  DEV_STAFF_PASSWORD: string
  DEV_APPROVER_PASSWORD: string
  DEV_APPROVER2_PASSWORD: string
  DEV_ADMIN_PASSWORD: string
  DEV_ADMIN2_PASSWORD: string
  DEV_AUDITOR_PASSWORD: string
}

/**
 * Each dev user's password: the given variable's, else its default `<name>-dev-password`.
 * No imports: the e2e specs use it.
 */
export function devPasswords(given: { [K in keyof DevPasswords]?: string | undefined }): DevPasswords {
  return {
    DEV_STAFF_PASSWORD: given.DEV_STAFF_PASSWORD ?? 'staff-dev-password',
    DEV_APPROVER_PASSWORD: given.DEV_APPROVER_PASSWORD ?? 'approver-dev-password',
    DEV_APPROVER2_PASSWORD: given.DEV_APPROVER2_PASSWORD ?? 'approver2-dev-password',
    DEV_ADMIN_PASSWORD: given.DEV_ADMIN_PASSWORD ?? 'admin-dev-password',
    DEV_ADMIN2_PASSWORD: given.DEV_ADMIN2_PASSWORD ?? 'admin2-dev-password',
    DEV_AUDITOR_PASSWORD: given.DEV_AUDITOR_PASSWORD ?? 'auditor-dev-password',
  }
}

/** The same passwords by user, as the login page's dev box lists them (Config's devPasswords). */
export function devPasswordsByUser(p: DevPasswords) {
  return {
    staff: p.DEV_STAFF_PASSWORD,
    approver: p.DEV_APPROVER_PASSWORD,
    approver2: p.DEV_APPROVER2_PASSWORD,
    admin: p.DEV_ADMIN_PASSWORD,
    admin2: p.DEV_ADMIN2_PASSWORD,
    auditor: p.DEV_AUDITOR_PASSWORD,
  }
}
