import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { KmsPublicKeyError } from '@/worker/errors/kms'
import { parseSecp256k1PublicKey } from './getKmsPublicKeyOrThrow'

const spkiOf = (key: ReturnType<typeof generateKeyPairSync>['publicKey']) =>
  new Uint8Array(key.export({ type: 'spki', format: 'der' }))

describe('parseSecp256k1PublicKey', () => {
  it('returns the 65-byte uncompressed key of a secp256k1 SubjectPublicKeyInfo', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
    const jwk = publicKey.export({ format: 'jwk' })
    const key = parseSecp256k1PublicKey(spkiOf(publicKey), { keyId: 'k' })
    expect(key).toMatch(/^0x04[0-9a-f]{128}$/)
    expect(key.slice(4, 68)).toBe(Buffer.from(jwk.x ?? '', 'base64url').toString('hex'))
    expect(key.slice(68)).toBe(Buffer.from(jwk.y ?? '', 'base64url').toString('hex'))
  })

  it('rejects other curves and algorithms', () => {
    const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey
    expect(() => parseSecp256k1PublicKey(spkiOf(p256), { keyId: 'k' })).toThrow(
      /1\.2\.840\.10045\.3\.1\.7 is not secp256k1/,
    )
    const ed = generateKeyPairSync('ed25519').publicKey
    expect(() => parseSecp256k1PublicKey(spkiOf(ed), { keyId: 'k' })).toThrow(/is not id-ecPublicKey/)
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey
    expect(() => parseSecp256k1PublicKey(spkiOf(rsa), { keyId: 'k' })).toThrow(KmsPublicKeyError)
  })

  it('rejects a compressed point and a point off the curve', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
    const good = spkiOf(publicKey)
    const point = good.subarray(good.length - 65)
    // the same SubjectPublicKeyInfo with the 33-byte compressed point
    const compressed = new Uint8Array([
      ...Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex'),
      2 + (point[64] & 1),
      ...point.subarray(1, 33),
    ])
    expect(() => parseSecp256k1PublicKey(compressed, { keyId: 'k' })).toThrow(/65-byte uncompressed/)
    const offCurve = good.slice()
    offCurve[offCurve.length - 1] ^= 0x01
    expect(() => parseSecp256k1PublicKey(offCurve, { keyId: 'k' })).toThrow(/not a point on secp256k1/)
  })

  it('wraps malformed DER with its cause', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
    const der = spkiOf(publicKey)
    try {
      parseSecp256k1PublicKey(der.subarray(0, 40), { keyId: 'key-1' })
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(KmsPublicKeyError)
      expect((err as Error).message).toMatch(/key-1/)
      expect((err as Error).cause).toBeInstanceOf(Error)
    }
  })
})
