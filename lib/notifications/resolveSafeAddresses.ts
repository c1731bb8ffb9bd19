import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { isBlockedAddress } from './isBlockedAddress'

export type ResolvedAddress = { address: string; family: 4 | 6 }

/** dns.lookup with every address (the resolver of the operating system, /etc/hosts included); replaceable in tests */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>

export const resolveHost: ResolveHost = async (hostname) => {
  const bare = hostname.replace(/^\[|\]$/g, '')
  const version = isIP(bare)
  if (version === 4 || version === 6) return [{ address: bare, family: version }]
  const found = await lookup(bare, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

export type ResolveSafeAddressesParameters = { hostname: string; production: boolean; resolve?: ResolveHost }

export type ResolveSafeAddressesReturnType = { ok: true; addresses: ResolvedAddress[] } | { ok: false; reason: string }

/**
 * The addresses a webhook to this host may connect to. In production every address the
 * name resolves to must be public (isBlockedAddress): one private answer refuses the host,
 * since a resolver may answer differently next time. Outside production (the local stack,
 * tests) loopback and private addresses are allowed.
 */
export async function resolveSafeAddresses({
  hostname,
  production,
  resolve = resolveHost,
}: ResolveSafeAddressesParameters): Promise<ResolveSafeAddressesReturnType> {
  let addresses: ResolvedAddress[]
  try {
    addresses = await resolve(hostname)
  } catch {
    return { ok: false, reason: `${hostname} does not resolve` }
  }
  if (addresses.length === 0) return { ok: false, reason: `${hostname} does not resolve` }
  if (production) {
    const blocked = addresses.find((a) => isBlockedAddress(a.address))
    if (blocked)
      return {
        ok: false,
        reason: `${hostname} resolves to ${blocked.address}, a loopback, private or reserved address`,
      }
  }
  return { ok: true, addresses }
}
