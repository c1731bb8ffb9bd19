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
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
    '64:ff9b::808:808',
  ])('%s is allowed', (address) => {
    expect(isBlockedAddress(address)).toBe(false)
  })
})
