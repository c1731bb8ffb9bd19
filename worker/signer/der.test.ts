import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DerParseError } from '@/worker/errors/kms'
import {
  DerTag,
  derObjectIdentifier,
  derUnsignedInteger,
  parseDerChildren,
  parseDerElement,
  parseDerOnly,
  parseSubjectPublicKeyInfo,
} from './der'

const b = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/\s/g, ''), 'hex'))

describe('parseDerElement', () => {
  it('reads short and long lengths', () => {
    const short = parseDerElement(b('0403 aabbcc'))
    expect(short.tag).toBe(DerTag.octetString)
    expect([...short.content]).toEqual([0xaa, 0xbb, 0xcc])
    expect(short.end).toBe(5)

    const long = parseDerElement(new Uint8Array([0x04, 0x81, 0x80, ...new Uint8Array(128)]))
    expect(long.content.length).toBe(128)
    const longer = parseDerElement(new Uint8Array([0x04, 0x82, 0x01, 0x00, ...new Uint8Array(256)]))
    expect(longer.content.length).toBe(256)
  })

  it.each([
    ['empty input', ''],
    ['tag without length', '30'],
    ['content shorter than its length', '0405 aabb'],
    ['indefinite length', '3080 0000'],
    ['long form for a short length', '048101 aa'],
    ['long-form length with a leading zero', `04820080${'00'.repeat(128)}`],
    ['length of 5 bytes', '04850000000001 aa'],
    ['long-form length running past the input', '0482 01'],
    ['multi-byte tag', '1f0100'],
  ])('rejects %s', (_, hex) => {
    expect(() => parseDerElement(b(hex))).toThrow(DerParseError)
  })
})

describe('parseDerOnly / parseDerChildren', () => {
  it('rejects trailing bytes and the wrong tag', () => {
    expect(() => parseDerOnly(b('3000 00'), DerTag.sequence, 'x')).toThrow(/trailing/)
    expect(() => parseDerOnly(b('0400'), DerTag.sequence, 'x')).toThrow(/expected tag 0x30/)
  })

  it('splits a constructed element exactly', () => {
    const seq = parseDerOnly(b('3006 020101 020102'), DerTag.sequence, 'x')
    expect(parseDerChildren(seq.content).map((c) => [...c.content])).toEqual([[1], [2]])
    expect(() => parseDerChildren(b('020101 0201'))).toThrow(DerParseError)
  })
})

describe('derUnsignedInteger', () => {
  it('reads positive integers', () => {
    expect(derUnsignedInteger(b('01'), 'x')).toBe(1n)
    expect(derUnsignedInteger(b('00ff'), 'x')).toBe(255n)
    expect(derUnsignedInteger(b('00'), 'x')).toBe(0n)
    expect(derUnsignedInteger(b('7fffffffffffffffff'), 'x')).toBe(0x7fffffffffffffffffn)
  })

  it('rejects empty, negative and non-minimal integers', () => {
    expect(() => derUnsignedInteger(b(''), 'x')).toThrow(/empty/)
    expect(() => derUnsignedInteger(b('ff'), 'x')).toThrow(/negative/)
    expect(() => derUnsignedInteger(b('0001'), 'x')).toThrow(/leading zero/)
  })
})

describe('derObjectIdentifier', () => {
  it('decodes the OIDs KMS uses', () => {
    expect(derObjectIdentifier(b('2a8648ce3d0201'))).toBe('1.2.840.10045.2.1')
    expect(derObjectIdentifier(b('2b8104000a'))).toBe('1.3.132.0.10')
    expect(derObjectIdentifier(b('2a8648ce3d030107'))).toBe('1.2.840.10045.3.1.7')
  })

  it('rejects truncated and padded arcs', () => {
    expect(() => derObjectIdentifier(b(''))).toThrow(DerParseError)
    expect(() => derObjectIdentifier(b('2a86'))).toThrow(/ends inside/)
    expect(() => derObjectIdentifier(b('2a8086'))).toThrow(/0x80/)
  })
})

describe('parseSubjectPublicKeyInfo', () => {
  it('reads a secp256k1 key encoded by OpenSSL', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
    const spki = parseSubjectPublicKeyInfo(publicKey.export({ type: 'spki', format: 'der' }))
    expect(spki.algorithm).toBe('1.2.840.10045.2.1')
    expect(spki.parameters).toBe('1.3.132.0.10')
    expect(spki.publicKey.length).toBe(65)
    expect(spki.publicKey[0]).toBe(4)
  })

  it('reads an Ed25519 key (no parameters)', () => {
    const { publicKey } = generateKeyPairSync('ed25519')
    const spki = parseSubjectPublicKeyInfo(publicKey.export({ type: 'spki', format: 'der' }))
    expect(spki.algorithm).toBe('1.3.101.112')
    expect(spki.parameters).toBeUndefined()
    expect(spki.publicKey.length).toBe(32)
  })

  it('rejects malformed structures', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
    const good = new Uint8Array(publicKey.export({ type: 'spki', format: 'der' }))
    expect(() => parseSubjectPublicKeyInfo(good.subarray(0, good.length - 1))).toThrow(DerParseError)
    expect(() => parseSubjectPublicKeyInfo(new Uint8Array([...good, 0]))).toThrow(/trailing/)
    const unusedBits = good.slice()
    unusedBits[good.length - 66] = 1 // the BIT STRING's unused-bits byte
    expect(() => parseSubjectPublicKeyInfo(unusedBits)).toThrow(/unused bits/)
    const notBitString = good.slice()
    notBitString[good.length - 68] = DerTag.octetString
    expect(() => parseSubjectPublicKeyInfo(notBitString)).toThrow(/BIT STRING/)
    expect(() => parseSubjectPublicKeyInfo(b('3000'))).toThrow(/0 parts/)
    expect(() => parseSubjectPublicKeyInfo(b('3003 020101'))).toThrow(DerParseError)
  })
})
