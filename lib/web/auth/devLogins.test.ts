import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '@/lib/config/loadConfig'
import { devLogins } from './devLogins'

const base = { DATABASE_URL: 'postgres://localhost/x', NODE_ENV: 'development' }

/** The seeded users of docs/api.md's table ("The local stack seeds six users"). */
function documentedUsers(): string[] {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/api.md'), 'utf8')
  return [...doc.matchAll(/^\| `([a-z0-9]+@mintdesk\.local)` +\| [a-z]+ +\|$/gm)].map((m) => m[1] ?? '')
}

describe('devLogins', () => {
  it('lists every user docs/api.md says the stack seeds, with its dev password', () => {
    const logins = devLogins(loadConfig({ env: base, role: 'web' }).devPasswords)
    expect(documentedUsers()).toHaveLength(6)
    expect(logins.map((l) => l.email)).toEqual(documentedUsers())
    expect(logins.find((l) => l.email === 'approver2@mintdesk.local')?.password).toBe('approver2-dev-password')
  })
  it('lists none outside dev mode', () => {
    expect(devLogins(undefined)).toEqual([])
  })
})
