import { type Address, getAddress, type Hex, hexToBytes, keccak256 } from 'viem'
import { InvalidPublicKeyError } from '@/worker/errors/kms'

export type PublicKeyToAddressReturnType = Address

/**
 * The Ethereum address of an uncompressed secp256k1 public key (65 bytes, 0x04 || x || y):
 * the last 20 bytes of keccak256(x || y), checksummed (EIP-55).
 */
export function publicKeyToAddress(publicKey: Hex | Uint8Array): PublicKeyToAddressReturnType {
  const bytes = typeof publicKey === 'string' ? hexToBytes(publicKey) : publicKey
  if (bytes.length !== 65 || bytes[0] !== 0x04) {
    throw new InvalidPublicKeyError(
      `expected a 65-byte uncompressed public key starting with 0x04, got ${bytes.length} bytes starting with 0x${(bytes[0] ?? 0).toString(16).padStart(2, '0')}`,
    )
  }
  const hash = keccak256(bytes.subarray(1))
  return getAddress(`0x${hash.slice(-40)}`)
}
