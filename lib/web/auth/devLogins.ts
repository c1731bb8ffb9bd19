import type { Config } from '@/lib/config/loadConfig'
import {
  DEV_ADMIN_EMAIL,
  DEV_ADMIN2_EMAIL,
  DEV_APPROVER_EMAIL,
  DEV_APPROVER2_EMAIL,
  DEV_AUDITOR_EMAIL,
  DEV_STAFF_EMAIL,
} from './seedDevUsers'

export type DevLogin = { label: string; email: string; password: string }

/**
 * The login page's dev box: every user the local stack seeds (docs/api.md's table), with its dev password, in the
 * table's order. None outside dev mode (the config has no dev passwords there).
 */
export function devLogins(passwords: Config['devPasswords']): DevLogin[] {
  if (!passwords) return []
  return [
    { label: 'Staff', email: DEV_STAFF_EMAIL, password: passwords.staff },
    { label: 'Approver', email: DEV_APPROVER_EMAIL, password: passwords.approver },
    { label: 'Second approver', email: DEV_APPROVER2_EMAIL, password: passwords.approver2 },
    { label: 'Admin', email: DEV_ADMIN_EMAIL, password: passwords.admin },
    { label: 'Second admin', email: DEV_ADMIN2_EMAIL, password: passwords.admin2 },
    { label: 'Auditor', email: DEV_AUDITOR_EMAIL, password: passwords.auditor },
  ]
}
