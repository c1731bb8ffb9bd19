import { describe, expect, it } from 'vitest'
import { safeCallbackUrl } from './safeCallbackUrl'

describe('safeCallbackUrl', () => {
  it('keeps same-site paths with their query', () => {
    expect(safeCallbackUrl('/mints')).toBe('/mints')
    expect(safeCallbackUrl('/admin/jobs?state=dead')).toBe('/admin/jobs?state=dead')
  })
  it('refuses other origins and tricks', () => {
    for (const bad of [
      'https://evil.test/x',
      '//evil.test',
      '/\\evil.test',
      '\\\\evil.test',
      'javascript:alert(1)',
      '/mints\n',
      '',
      'mints',
      undefined,
      42,
    ]) {
      expect(safeCallbackUrl(bad), String(bad)).toBeNull()
    }
  })
  it('reduces an absolute URL on our own origin to its path', () => {
    expect(safeCallbackUrl('http://localhost:3000/mints?x=1', { ownOrigin: 'http://localhost:3000' })).toBe(
      '/mints?x=1',
    )
    expect(safeCallbackUrl('http://evil.test/mints', { ownOrigin: 'http://localhost:3000' })).toBeNull()
  })
  it('never points back at the sign-in flow', () => {
    expect(safeCallbackUrl('/login')).toBeNull()
    expect(safeCallbackUrl('/login?callbackUrl=/x')).toBeNull()
    expect(safeCallbackUrl('/api/auth/signout')).toBeNull()
  })
})
