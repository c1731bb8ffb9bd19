import type { DevKeyName } from '@/lib/keys/devKeys'

/** The local stack's people and the dev key each holds (API.md "Keys people hold"); staff and auditors hold none. */
const DEV_KEY_HOLDERS: Readonly<Record<string, DevKeyName>> = {
  'approver@mintdesk.local': 'approver',
  'approver2@mintdesk.local': 'approver2',
  'admin@mintdesk.local': 'admin',
  'admin2@mintdesk.local': 'admin2',
}

/** The dev key `email` holds in the local stack, or null. */
export function devKeyNameOf(email: string): DevKeyName | null {
  return DEV_KEY_HOLDERS[email.toLowerCase()] ?? null
}
