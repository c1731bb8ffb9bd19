import { isIP } from 'node:net'

/**
 * Whether a webhook may NOT be sent to this IP address in production (no server-side
 * request forgery): loopback, unspecified, private (RFC 1918), carrier-grade NAT
 * (100.64/10), link-local (169.254/16, fe80::/10, the cloud metadata address among them),
 * multicast, reserved and documentation ranges, benchmarking (198.18/15), IPv6 unique local
 * (fc00::/7) and site-local, and the IPv6 forms that carry an IPv4 address: IPv4-mapped
 * ::ffff:0:0/96 (RFC 4291) and IPv4-translated ::ffff:0:0:0/96 (RFC 2765) are refused whole
 * (a dual-stack socket reaches the IPv4 host through them; no public service is published
 * as one), so are the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) and the rest of
 * 64:ff9b::/32 (a translator of the operator's network, not the internet), and Teredo
 * (2001::/32); the well-known NAT64 prefix 64:ff9b::/96 (RFC 6052), compatible ::a.b.c.d and
 * 6to4 2002::/16 are judged by the IPv4 address inside. Anything that is not an IP is blocked
 * too.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const version = isIP(bare)
  if (version === 4) return isBlockedV4(v4Bytes(bare))
  if (version === 6) return isBlockedV6(v6Bytes(bare))
  return true
}

function isBlockedV4(b: number[]): boolean {
  const n = toUint32(b)
  return V4_NETS.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
    return (n & mask) >>> 0 === (toUint32(v4Bytes(base)) & mask) >>> 0
  })
}

function toUint32(b: number[]): number {
  return (((b[0] ?? 0) << 24) >>> 0) + ((b[1] ?? 0) << 16) + ((b[2] ?? 0) << 8) + (b[3] ?? 0)
}

const V4_NETS: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // this network, unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
]

function isBlockedV6(b: number[]): boolean {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0)
  const embedded = (at: number) => isBlockedV4(b.slice(at, at + 4))
  if (zeros(0, 16)) return true // ::
  if (zeros(0, 15) && b[15] === 1) return true // ::1
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return true // ::ffff:0:0/96, IPv4-mapped (RFC 4291)
  // ::ffff:0:0:0/96, IPv4-translated (RFC 2765)
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return true
  if (zeros(0, 12)) return embedded(12) // ::a.b.c.d (compatible, deprecated)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    // 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052): as the IPv4 address it translates to
    if (zeros(4, 12)) return embedded(12)
    // 64:ff9b:1::/48 (local-use NAT64, RFC 8215) and the rest of 64:ff9b::/32: the operator's own translators
    return true
  }
  if (b[0] === 0x20 && b[1] === 0x02) return embedded(2) // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return true // Teredo
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return true // documentation
  if (b[0] === 0x01 && b[1] === 0x00 && zeros(2, 8)) return true // discard-only 100::/64
  const first = b[0] ?? 0
  const second = b[1] ?? 0
  if ((first & 0xfe) === 0xfc) return true // fc00::/7 unique local
  if (first === 0xfe && (second & 0xc0) === 0x80) return true // fe80::/10 link-local
  if (first === 0xfe && (second & 0xc0) === 0xc0) return true // fec0::/10 site-local
  if (first === 0xff) return true // multicast
  return false
}

function v4Bytes(address: string): number[] {
  return address.split('.').map((x) => Number(x) & 0xff)
}

/** 16 bytes of an IPv6 address (with :: and a dotted IPv4 tail expanded). */
function v6Bytes(address: string): number[] {
  let text = address.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Bytes(dotted[1])
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : []
  const missing = 8 - headGroups.length - tailGroups.length
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups]
  return groups.flatMap((g) => {
    const v = parseInt(g || '0', 16)
    return [(v >> 8) & 0xff, v & 0xff]
  })
}
