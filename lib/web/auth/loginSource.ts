import { isIPv4, isIPv6 } from 'node:net'

/** What a sign-in without a known address counts as: one source, shared by all such sign-ins. */
export const UNKNOWN_LOGIN_SOURCE = 'unknown'

/**
 * The source a sign-in is counted under by the login throttle (lib/web/auth/beginLoginAttempt.ts):
 * an IPv4 address as it is; an IPv6 address by its /64 prefix (`2001:db8:1:2::/64`), the
 * block one subscriber, or one attacker, gets, which rotating through its 2^64 addresses
 * must not escape; anything else (no address, one that does not parse) as `unknown`.
 *
 * @example
 * loginSourceOf('2001:db8:1:2:aaaa::7') // '2001:db8:1:2::/64'
 */
export function loginSourceOf(ip: string | null): string {
  if (ip === null) return UNKNOWN_LOGIN_SOURCE
  const address = ip.trim().toLowerCase()
  if (isIPv4(address)) return address
  if (!isIPv6(address)) return UNKNOWN_LOGIN_SOURCE
  const groups = expandIPv6(address)
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail turned into two groups). */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0] ?? address
  let text = withoutZone
  const lastColon = text.lastIndexOf(':')
  const tail = text.slice(lastColon + 1)
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number)
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', rest] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = rest === undefined || rest === '' ? [] : rest.split(':')
  const zeros = rest === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...zeros, ...right].map((g) => g.padStart(4, '0'))
}
