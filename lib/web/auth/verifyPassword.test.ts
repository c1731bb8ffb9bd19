import { scryptSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '@/lib/auth/hashPassword'
import { verifyPassword } from './verifyPassword'

describe('verifyPassword', () => {
  let hash: string
  beforeAll(async () => {
    hash = await hashPassword({ password: 'staff-dev-password' })
  })

  it('accepts the right password and refuses a wrong one', async () => {
    expect(await verifyPassword({ password: 'staff-dev-password', hash })).toBe(true)
    expect(await verifyPassword({ password: 'staff-dev-passwore', hash })).toBe(false)
    expect(await verifyPassword({ password: 'Staff-dev-password', hash })).toBe(false)
    expect(await verifyPassword({ password: '', hash })).toBe(false)
  })

  it('compares passwords in one Unicode form (NFC)', async () => {
    const composed = await hashPassword({ password: 'caf\u00e9' })
    expect(await verifyPassword({ password: 'cafe\u0301', hash: composed })).toBe(true)
  })

  it('reads the cost parameters from the hash (old hashes keep working)', async () => {
    const salt = Buffer.from('0123456789abcdef')
    const key = scryptSync('old-password', salt, 64, { N: 2 ** 14, r: 8, p: 1 })
    const old = `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`
    expect(await verifyPassword({ password: 'old-password', hash: old })).toBe(true)
    expect(await verifyPassword({ password: 'new-password', hash: old })).toBe(false)
  })

  it('never matches a malformed or tampered hash', async () => {
    const [, , , , salt, key] = hash.split('$')
    const bad = [
      '',
      'not-a-hash',
      `bcrypt$32768$8$1$${salt}$${key}`,
      `scrypt$32768$8$1$${salt}`,
      `scrypt$32768$8$1$${salt}$${key}$extra`,
      `scrypt$30000$8$1$${salt}$${key}`, // N not a power of two
      `scrypt$1073741824$8$1$${salt}$${key}`, // absurd N: would ask for 1 TiB
      `scrypt$32768$999$1$${salt}$${key}`,
      `scrypt$032768$8$1$${salt}$${key}`,
      `scrypt$32768$8$1$!!!$${key}`,
      `scrypt$32768$8$1$${salt}$${Buffer.from('short').toString('base64')}`,
      `scrypt$32768$8$1$${salt}$${Buffer.alloc(32).toString('base64')}`, // right shape, wrong key
    ]
    for (const h of bad) expect(await verifyPassword({ password: 'staff-dev-password', hash: h }), h).toBe(false)
  })
})
