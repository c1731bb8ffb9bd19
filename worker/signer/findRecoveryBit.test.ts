import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes, keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { findRecoveryBit } from './findRecoveryBit'

const N = secp256k1.Point.CURVE().n
const sk = secp256k1.utils.randomSecretKey()
const publicKey = bytesToHex(secp256k1.getPublicKey(sk, false))
const signed = (i: number) => {
  const hash = hexToBytes(keccak256(toHex(`order ${i}`)))
  const sig = secp256k1.Signature.fromBytes(
    secp256k1.sign(hash, sk, { prehash: false, format: 'recovered' }),
    'recovered',
  )
  if (sig.recovery === undefined) throw new Error('noble gave no recovery id')
  return { hash, sig, recovery: sig.recovery }
}

describe('findRecoveryBit', () => {
  it("finds the recovery id noble's signer gives, both parities, over many digests", () => {
    const seen = new Set<number>()
    for (let i = 0; i < 40; i++) {
      const { hash, sig, recovery } = signed(i)
      expect(findRecoveryBit({ hash, r: sig.r, s: sig.s, publicKey })).toBe(recovery)
      seen.add(recovery)
    }
    expect([...seen].sort()).toEqual([0, 1])
  })

  it('agrees with a public-key recovery when s was flipped to n - s (the parity flips with it)', () => {
    const { hash, sig, recovery } = signed(99)
    const flipped = N - sig.s
    const bit = findRecoveryBit({ hash, r: sig.r, s: flipped, publicKey })
    expect(bit).toBe(recovery ^ 1)
    const recovered = new secp256k1.Signature(sig.r, flipped).addRecoveryBit(bit ?? 0).recoverPublicKey(hash)
    expect(bytesToHex(recovered.toBytes(false))).toBe(publicKey)
  })

  it("refuses another key's signature, another digest's, and out-of-range values", () => {
    const { hash, sig } = signed(7)
    const other = bytesToHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false))
    expect(findRecoveryBit({ hash, r: sig.r, s: sig.s, publicKey: other })).toBeUndefined()
    expect(findRecoveryBit({ hash: signed(8).hash, r: sig.r, s: sig.s, publicKey })).toBeUndefined()
    expect(findRecoveryBit({ hash, r: 0n, s: sig.s, publicKey })).toBeUndefined()
    expect(findRecoveryBit({ hash, r: sig.r, s: N, publicKey })).toBeUndefined()
    expect(findRecoveryBit({ hash: hash.slice(1), r: sig.r, s: sig.s, publicKey })).toBeUndefined()
  })
})
