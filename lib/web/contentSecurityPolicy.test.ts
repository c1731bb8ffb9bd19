import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, createCspNonce } from './contentSecurityPolicy'

const directives = (csp: string) => new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]))

describe('contentSecurityPolicy', () => {
  it('lets scripts run only with the nonce: no unsafe-inline or unsafe-eval for scripts in production', () => {
    const d = directives(contentSecurityPolicy({ nonce: 'abc123==', dev: false }))
    expect(d.get('script-src')).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"])
    expect(d.get('default-src')).toEqual(["'self'"])
    expect(d.get('frame-ancestors')).toEqual(["'none'"])
    expect(d.get('object-src')).toEqual(["'none'"])
    expect(d.get('base-uri')).toEqual(["'self'"])
    expect(d.get('connect-src')).toEqual(["'self'"])
    expect([...d.values()].flat()).not.toContain("'unsafe-eval'")
  })

  it('adds eval and websockets in next dev only, never unsafe-inline for scripts', () => {
    const d = directives(contentSecurityPolicy({ nonce: 'n', dev: true }))
    expect(d.get('script-src')).toEqual(["'self'", "'nonce-n'", "'strict-dynamic'", "'unsafe-eval'"])
    expect(d.get('connect-src')).toEqual(["'self'", 'ws:', 'wss:'])
  })

  it('makes a fresh 128-bit base64 nonce each time', () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => createCspNonce()))
    expect(nonces.size).toBe(1000)
    for (const n of nonces) {
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(Buffer.from(n, 'base64')).toHaveLength(16)
    }
  })
})
