import { type Hex, hexToBigInt, keccak256, numberToHex, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { devKey } from '@/lib/keys/devKeys'
import { isEoaSignature } from './isEoaSignature'

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const digestOf = (text: string): Hex => keccak256(toHex(text))

/** r || s || v with s replaced by n - s and v flipped: the same signature, high-s */
function highS(signature: Hex): Hex {
  const s = hexToBigInt(`0x${signature.slice(66, 130)}`)
  const v = Number.parseInt(signature.slice(130, 132), 16)
  return `${signature.slice(0, 66)}${numberToHex(N - s, { size: 32 }).slice(2)}${(v === 27 ? 28 : 27).toString(16)}` as Hex
}

describe('isEoaSignature', () => {
  it("takes a key's signatures, first by recovery, then against the key it learnt", async () => {
    const key = devKey('approver2')
    for (const text of ['first', 'second', 'third']) {
      const digest = digestOf(text)
      const signature = await key.sign({ hash: digest })
      expect(await isEoaSignature({ digest, signature, signer: key.address })).toBe(true)
    }
  })

  it('refuses another digest, another signer, a flipped v, high s, v of 0 or 1 and 64 bytes, on both paths', async () => {
    const key = devKey('approver')
    const other = devKey('custodian')
    const digest = digestOf('the intent')
    const signature = await key.sign({ hash: digest })
    const v = Number.parseInt(signature.slice(130, 132), 16)
    const refused: Hex[] = [
      `${signature.slice(0, 130)}${(v === 27 ? 28 : 27).toString(16)}` as Hex,
      highS(signature),
      `${signature.slice(0, 130)}${(v - 27).toString(16).padStart(2, '0')}` as Hex,
      signature.slice(0, 130) as Hex,
    ]
    // before the key is known (recovery), then after (its table)
    for (const round of ['unknown key', 'known key']) {
      expect(await isEoaSignature({ digest: digestOf('another intent'), signature, signer: key.address }), round).toBe(
        false,
      )
      expect(await isEoaSignature({ digest, signature, signer: other.address }), round).toBe(false)
      for (const bad of refused)
        expect(await isEoaSignature({ digest, signature: bad, signer: key.address })).toBe(false)
      if (round === 'unknown key') expect(await isEoaSignature({ digest, signature, signer: key.address })).toBe(true)
    }
  })
})
