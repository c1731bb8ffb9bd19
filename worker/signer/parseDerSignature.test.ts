import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import { DerParseError } from '@/worker/errors/kms'
import { parseDerSignature } from './parseDerSignature'

const N = secp256k1.Point.CURVE().n
const b = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/\s/g, ''), 'hex'))
const int = (v: bigint) => {
  let hex = v.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  if (Number.parseInt(hex.slice(0, 2), 16) & 0x80) hex = `00${hex}`
  return `02${(hex.length / 2).toString(16).padStart(2, '0')}${hex}`
}
const seq = (...parts: string[]) => {
  const body = parts.join('')
  return `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`
}

describe('parseDerSignature', () => {
  it('reads minimal vectors', () => {
    expect(parseDerSignature(b('3006 020101 020102'))).toEqual({ r: 1n, s: 2n })
    // a high bit needs a 0x00 pad to stay positive
    expect(parseDerSignature(b('3008 02020080 020201ff'))).toEqual({ r: 0x80n, s: 0x1ffn })
  })

  it('reads 32-byte values with and without padding, and n - 1', () => {
    const r = 0x80n << 248n
    const s = N - 1n
    expect(parseDerSignature(b(seq(int(r), int(s))))).toEqual({ r, s })
    expect(parseDerSignature(b(seq(int(1n << 200n), int(5n))))).toEqual({ r: 1n << 200n, s: 5n })
  })

  it('agrees with @noble/curves on real signatures, high and low s', () => {
    for (let i = 0; i < 20; i++) {
      const sk = secp256k1.utils.randomSecretKey()
      const digest = crypto.getRandomValues(new Uint8Array(32))
      const der = secp256k1.sign(digest, sk, { prehash: false, lowS: false, format: 'der', extraEntropy: true })
      const expected = secp256k1.Signature.fromBytes(der, 'der')
      expect(parseDerSignature(der)).toEqual({ r: expected.r, s: expected.s })
    }
  })

  it.each([
    ['empty input', ''],
    ['not a SEQUENCE', '3106 020101 020101'],
    ['one INTEGER', '3003 020101'],
    ['three INTEGERs', '3009 020101 020101 020101'],
    ['a trailing byte after the SEQUENCE', '3006 020101 020101 00'],
    ['a SEQUENCE longer than the input', '3007 020101 020101'],
    ['bytes left inside the SEQUENCE', '3007 020101 020101 00'],
    ['an OCTET STRING instead of an INTEGER', '3006 040101 020101'],
    ['a negative r', '3006 020181 020101'],
    ['a non-minimal r', '3007 02020001 020101'],
    ['an empty s', '3005 020101 0200'],
    ['r = 0', '3006 020100 020101'],
    ['s = 0', '3006 020101 020100'],
    ['indefinite length', '3080 020101 020101 0000'],
    ['a long-form length below 128', '308106 020101 020101'],
    ['an INTEGER of 34 bytes', seq(`0222 0001${'00'.repeat(32)}`, '020101')],
  ])('rejects %s', (_, hex) => {
    expect(() => parseDerSignature(b(hex))).toThrow(DerParseError)
  })

  it('rejects r or s not below the curve order', () => {
    expect(() => parseDerSignature(b(seq(int(N), int(1n))))).toThrow(/r is out of range/)
    expect(() => parseDerSignature(b(seq(int(1n), int(N))))).toThrow(/s is out of range/)
    expect(() => parseDerSignature(b(seq(int(1n), int(N + 5n))))).toThrow(/s is out of range/)
  })
})
