import { describe, expect, it } from 'vitest'
import { verifyPassword } from '@/lib/web/auth/verifyPassword'
import { hashPassword } from './hashPassword'

describe('hashPassword', () => {
  it('writes scrypt$N$r$p$salt$hash with N=2^15, r=8, p=1 and a 16-byte salt', async () => {
    const hash = await hashPassword({ password: 'correct horse battery staple' })
    const parts = hash.split('$')
    expect(parts).toHaveLength(6)
    expect(parts.slice(0, 4)).toEqual(['scrypt', '32768', '8', '1'])
    expect(Buffer.from(parts[4], 'base64')).toHaveLength(16)
    expect(Buffer.from(parts[5], 'base64').length).toBeGreaterThanOrEqual(32)
    expect(hash).not.toContain('correct horse')
  })

  it('salts: the same password hashes differently each time, and both verify', async () => {
    const a = await hashPassword({ password: 'same' })
    const b = await hashPassword({ password: 'same' })
    expect(a).not.toBe(b)
    expect(await verifyPassword({ password: 'same', hash: a })).toBe(true)
    expect(await verifyPassword({ password: 'same', hash: b })).toBe(true)
  })

  it('refuses an empty password', async () => {
    await expect(hashPassword({ password: '' })).rejects.toThrow(TypeError)
  })
})
