import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { InvalidPublicKeyError } from '@/worker/errors/kms'
import { publicKeyToAddress } from './publicKeyToAddress'

// anvil's first dev account: a published test vector
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

describe('publicKeyToAddress', () => {
  it('derives the known address of a known key, checksummed', () => {
    const pub = secp256k1.getPublicKey(hexToBytes(DEV_KEY), false)
    expect(publicKeyToAddress(pub)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(publicKeyToAddress(bytesToHex(pub))).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  it('agrees with viem for random keys', () => {
    for (let i = 0; i < 5; i++) {
      const sk = secp256k1.utils.randomSecretKey()
      expect(publicKeyToAddress(secp256k1.getPublicKey(sk, false))).toBe(privateKeyToAccount(bytesToHex(sk)).address)
    }
  })

  it('rejects compressed and wrongly sized keys', () => {
    const sk = secp256k1.utils.randomSecretKey()
    expect(() => publicKeyToAddress(secp256k1.getPublicKey(sk, true))).toThrow(InvalidPublicKeyError)
    expect(() => publicKeyToAddress(secp256k1.getPublicKey(sk, false).subarray(1))).toThrow(InvalidPublicKeyError)
    expect(() => publicKeyToAddress('0x')).toThrow(InvalidPublicKeyError)
  })
})
