import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import { normalizeS, SECP256K1_HALF_N } from './normalizeS'

const N = secp256k1.Point.CURVE().n

describe('normalizeS', () => {
  it('keeps a low s and flips a high one to n - s', () => {
    expect(normalizeS({ r: 7n, s: 1n })).toEqual({ r: 7n, s: 1n, flipped: false })
    expect(normalizeS({ r: 7n, s: SECP256K1_HALF_N })).toEqual({ r: 7n, s: SECP256K1_HALF_N, flipped: false })
    expect(normalizeS({ r: 7n, s: SECP256K1_HALF_N + 1n })).toEqual({
      r: 7n,
      s: N - SECP256K1_HALF_N - 1n,
      flipped: true,
    })
    expect(normalizeS({ r: 7n, s: N - 1n })).toEqual({ r: 7n, s: 1n, flipped: true })
  })

  it('turns a high-s signature into a valid low-s one', () => {
    const sk = secp256k1.utils.randomSecretKey()
    const pub = secp256k1.getPublicKey(sk)
    const digest = crypto.getRandomValues(new Uint8Array(32))
    const low = secp256k1.Signature.fromBytes(secp256k1.sign(digest, sk, { prehash: false }))
    const high = new secp256k1.Signature(low.r, N - low.s)
    expect(high.hasHighS()).toBe(true)
    // a strict (EIP-2) verifier refuses the high form
    expect(secp256k1.verify(high.toBytes(), digest, pub, { prehash: false, lowS: true })).toBe(false)
    const fixed = normalizeS({ r: high.r, s: high.s })
    expect(fixed.flipped).toBe(true)
    expect(
      secp256k1.verify(new secp256k1.Signature(fixed.r, fixed.s).toBytes(), digest, pub, {
        prehash: false,
        lowS: true,
      }),
    ).toBe(true)
  })
})
