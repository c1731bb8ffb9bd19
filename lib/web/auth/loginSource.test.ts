import { describe, expect, it } from 'vitest'
import { loginSourceOf } from './loginSource'

describe('loginSourceOf', () => {
  it('an IPv4 address is its own source', () => {
    expect(loginSourceOf('203.0.113.9')).toBe('203.0.113.9')
    expect(loginSourceOf(' 203.0.113.9 ')).toBe('203.0.113.9')
  })

  it('an IPv6 address counts by its /64: one subscriber rotating its addresses stays one source', () => {
    const a = loginSourceOf('2001:db8:1:2::7')
    expect(a).toBe('2001:db8:1:2::/64')
    expect(loginSourceOf('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a)
    expect(loginSourceOf('2001:db8:1:2:aaaa:bbbb:1.2.3.4')).toBe(a)
    expect(loginSourceOf('2001:db8:1:3::7')).not.toBe(a)
    expect(loginSourceOf('::1')).toBe('0:0:0:0::/64')
    expect(loginSourceOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })

  it('no address, or one that does not parse, counts as one shared source', () => {
    expect(loginSourceOf(null)).toBe('unknown')
    expect(loginSourceOf('not-an-ip')).toBe('unknown')
    expect(loginSourceOf('')).toBe('unknown')
  })
})
