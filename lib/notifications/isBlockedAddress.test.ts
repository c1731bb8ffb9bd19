import { describe, expect, it } from 'vitest'
import { isBlockedAddress } from './isBlockedAddress'

describe('isBlockedAddress: where a production webhook may not go', () => {
  it.each([
    '127.0.0.1',
    '127.5.6.7',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
    '[::1]',
    'fe80::1%eth0',
    'not-an-ip',
    '',
  ])('%s is blocked', (address) => {
    expect(isBlockedAddress(address)).toBe(true)
  })

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2002:0808:0808::1',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
  ])('%s is allowed', (address) => {
    expect(isBlockedAddress(address)).toBe(false)
  })

  // the IPv6 forms that carry an IPv4 address (security review): each prefix, its edges and a public IPv4 inside
  describe('IPv4 inside IPv6', () => {
    it.each([
      // ::ffff:0:0/96, IPv4-mapped (RFC 4291 2.5.5.2): refused whole, a public IPv4 inside too
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '::ffff:0:0',
      '::ffff:ffff:ffff',
      '0:0:0:0:0:ffff:5db8:d70e',
      '[::ffff:93.184.215.14]',
      // ::ffff:0:0:0/96, IPv4-translated (RFC 2765 2.1): refused whole
      '::ffff:0:8.8.8.8',
      '::ffff:0:808:808',
      '::ffff:0:a00:1',
      '::ffff:0:0:0',
      '0:0:0:0:ffff:0:7f00:1',
      // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): refused whole, a public IPv4 inside too
      '64:ff9b:1::808:808',
      '64:ff9b:1::8.8.8.8',
      '64:ff9b:1:ffff:ffff:ffff:ffff:ffff',
      '64:ff9b:1::',
      // and the rest of 64:ff9b::/32 outside the well-known /96
      '64:ff9b:0:1::808:808',
      '64:ff9b:ffff::1',
      // 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052): refused when the IPv4 inside is not public
      '64:ff9b::10.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b::192.168.1.1',
      '64:ff9b::ac10:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::169.254.169.254',
      '64:ff9b::100.64.0.1',
      '64:ff9b::0.0.0.0',
      '64:ff9b::',
    ])('%s is blocked', (address) => {
      expect(isBlockedAddress(address)).toBe(true)
    })

    it.each([
      // the well-known NAT64 prefix with a public IPv4 inside is a real path to the internet
      '64:ff9b::808:808',
      '64:ff9b::93.184.215.14',
      '2606:4700:4700::1111',
    ])('%s is allowed', (address) => {
      expect(isBlockedAddress(address)).toBe(false)
    })
  })
})
