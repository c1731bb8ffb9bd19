import type { EIP1193Provider } from 'viem'

/**
 * The injected EIP-1193 wallet (`window.ethereum`: MetaMask, Rabby, Frame, a hardware
 * wallet's bridge...), or null where there is none (or on the server). Only its `request`
 * is used.
 */
export function readInjectedProvider(scope: object = globalThis): EIP1193Provider | null {
  const candidate: unknown = 'ethereum' in scope ? scope.ethereum : undefined
  if (typeof candidate !== 'object' || candidate === null) return null
  if (typeof (candidate as { request?: unknown }).request !== 'function') return null
  // checked above: an object with a request function, which is all the wallet layer calls
  return candidate as EIP1193Provider
}
