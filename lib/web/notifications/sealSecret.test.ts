import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openSecret } from '@/worker/notifications/openSecret'
import { sealSecret } from './sealSecret'

describe('webhook secrets at rest (AES-256-GCM)', () => {
  const key = randomBytes(32)
  const endpointId = '7d1c1f4e-2f0b-4c55-9a3e-4d1f0c6b7a10'

  it('opens with the key and the endpoint it was sealed for; the sealed form shows nothing of the secret', () => {
    const sealed = sealSecret({ key, secret: 'whsec_abc', endpointId })
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(sealed).not.toContain('abc')
    expect(openSecret({ key, sealed, endpointId })).toBe('whsec_abc')
    expect(sealSecret({ key, secret: 'whsec_abc', endpointId })).not.toBe(sealed)
  })

  it('refuses another key, another endpoint, or a tampered ciphertext', () => {
    const sealed = sealSecret({ key, secret: 'whsec_abc', endpointId })
    expect(() => openSecret({ key: randomBytes(32), sealed, endpointId })).toThrow(/does not open/)
    expect(() => openSecret({ key, sealed, endpointId: '00000000-0000-4000-8000-000000000000' })).toThrow(
      /does not open/,
    )
    const parts = sealed.split('.')
    const tampered = [...parts.slice(0, 3), Buffer.from('whsec_abd').toString('base64url')].join('.')
    expect(() => openSecret({ key, sealed: tampered, endpointId })).toThrow(/does not open/)
    expect(() => openSecret({ key, sealed: 'plain', endpointId })).toThrow(/v1 form/)
  })
})
