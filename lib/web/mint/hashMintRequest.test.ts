import { describe, expect, it } from 'vitest'
import { mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { canonicalJson, hashMintRequest } from './hashMintRequest'

describe('hashMintRequest', () => {
  it('canonical JSON sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,1]},"b":1}')
  })

  it('the same request in another key order or spelling hashes the same; another request does not', () => {
    const a = mintRequestSchema.parse(buildMintRequest({ bars: [{ serial: 'H1' }, { serial: 'H2' }] }))
    const reordered = mintRequestSchema.parse({
      vaultProof: { ...a.vaultProof },
      amount: a.amount,
      to: a.to.toLowerCase(),
    })
    expect(hashMintRequest(reordered)).toBe(hashMintRequest(a))
    const swapped = mintRequestSchema.parse(buildMintRequest({ bars: [{ serial: 'H2' }, { serial: 'H1' }] }))
    expect(hashMintRequest(swapped)).not.toBe(hashMintRequest(a))
    expect(hashMintRequest(a)).toMatch(/^[0-9a-f]{64}$/)
  })
})
