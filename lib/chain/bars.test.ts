import { concat, encodeAbiParameters, type Hex, keccak256, toBytes, zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { ozToWei } from '@/lib/money/ozToWei'
import {
  BarHashInputError,
  barLeaf,
  barLeafValues,
  barsHash,
  barsProof,
  barsRoot,
  collectBarLeaves,
  hasSortedLeaf,
  merkleTree,
  rootOfSortedLeaves,
  totalFineWei,
  vaultId,
} from './bars'

const bar = (serial: string, fineOz = '401.084', refiner = 'Valcambi SA') => ({
  serial,
  refiner,
  fineWei: ozToWei(fineOz),
})
const bars = ['AB123456', 'AB123457', 'CD-1', 'ef 22', 'GH3', 'IJ4', 'KL5'].map((s, i) => bar(s, `40${i}.125`))

/** OpenZeppelin's processProof with its sorted-pair node hash: the root a proof leads to. */
function processProof(leaf: Hex, proof: readonly Hex[]): Hex {
  return proof.reduce<Hex>(
    (node, sibling) => keccak256(node <= sibling ? concat([node, sibling]) : concat([sibling, node])),
    leaf,
  )
}

describe('lib/chain/bars.ts', () => {
  it("builds OpenZeppelin StandardMerkleTree's tree: its published dump for ['a'..'f'] as ['string']", () => {
    // @openzeppelin/merkle-tree, test/dumps/standard-v1.sorted.1_0_6.json (MIT): the whole tree, root first
    const dump = [
      '0x6deb52b5da8fd108f79fab00341f38d2587896634c646ee52e49f845680a70c8',
      '0x52426e0f1f65ff7e209a13b8c29cffe82e3acaf3dad0a9b9088f3b9a61a929c3',
      '0xfd3cf45654e88d1cc5d663578c82c76f4b5e3826bacaa1216441443504538f51',
      '0x8076923e76cf01a7c048400a2304c9a9c23bbbdac3a98ea3946340fdafbba34f',
      '0x965b92c6cf08303cc4feb7f3e0819c436c2cec17c6f0688a6af139c9a368707c',
      '0xeba909cf4bb90c6922771d7f126ad0fd11dfde93f3937a196274e1ac20fd2f5b',
      '0xc62a8cfa41edc0ef6f6ae27a2985b7d39c7fea770787d7e104696c6e81f64848',
      '0x9cf5a63718145ba968a01c1d557020181c5b252f665cf7386d370eddb176517b',
      '0x9c15a6a0eaeed500fd9eed4cbeab71f797cefcc67bfd46683e4d2e6ff7f06d1c',
      '0x9a4f64e953595df82d1b4f570d34c4f4f0cfaf729a61e9d60e83e579e1aa283e',
      '0x19ba6c6333e0e9a15bf67523e0676e2f23eb8e574092552d5e888c64a4bb3681',
    ]
    const leaves = ['a', 'b', 'c', 'd', 'e', 'f']
      .map((v) => keccak256(keccak256(encodeAbiParameters([{ type: 'string' }], [v]))))
      .sort()
    expect(merkleTree(leaves)).toEqual(dump)
  })

  it('hashes a bar as keccak256(keccak256(abi.encode(serialKey, refinerKey, fineWei))) with the keys normalized', () => {
    const b = bar('ab-123 456', '401.084', 'Valcambi SA')
    expect(barLeafValues(b)).toEqual(['AB123456', 'VALCAMBISA', 401_084_000_000_000_000_000n])
    const encoded = encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'uint256' }],
      ['AB123456', 'VALCAMBISA', 401_084_000_000_000_000_000n],
    )
    expect(barLeaf(b)).toBe(keccak256(keccak256(encoded)))
    // the same bar however its serial and refiner are spelled
    expect(barLeaf(bar('AB123456', '401.084', 'VALCAMBI-SA'))).toBe(barLeaf(b))
    expect(barLeaf(bar('AB123456', '401.085'))).not.toBe(barLeaf(b))
  })

  it('gives one root for one set of bars, in any order; a bar twice, in any spelling, throws', () => {
    const root = barsRoot(bars)
    expect(barsRoot([...bars].reverse())).toBe(root)
    expect(barsRoot([bars[3], bars[0], bars[6], bars[1], bars[5], bars[2], bars[4]])).toBe(root)
    expect(barsRoot(bars.slice(1))).not.toBe(root)
    expect(barsHash(bars)).toBe(root)
    expect(barsRoot([bars[0]])).toBe(barLeaf(bars[0]))
    expect(barsRoot([])).toBe(zeroHash)
    expect(() => barsRoot([...bars, bar('CD1', '1.000')])).toThrow(BarHashInputError)
    expect(() => barsRoot([bar('AB\u0410123')])).toThrow(/ASCII/)
  })

  it('proves each bar under the root as MerkleProof.verify checks it, and refuses a bar not there', () => {
    const root = barsRoot(bars)
    for (const b of bars) expect(processProof(barLeaf(b), barsProof(bars, b))).toBe(root)
    expect(() => barsProof(bars, bar('ZZ9'))).toThrow(/not among/)
  })

  it('collects leaves sorted for the same root (the merkleTree of the sorted hex leaves), and finds each by search', () => {
    const collector = collectBarLeaves()
    for (const b of [...bars].reverse()) collector.add(b)
    const sorted = collector.sorted()
    expect(sorted.length).toBe(32 * bars.length)
    const hexLeaves = bars.map((b) => barLeaf(b)).sort()
    expect(rootOfSortedLeaves(sorted)).toBe(merkleTree(hexLeaves)[0])
    expect(rootOfSortedLeaves(sorted)).toBe(barsRoot(bars))
    expect(rootOfSortedLeaves(new Uint8Array(0))).toBe(zeroHash)
    for (const b of bars) expect(hasSortedLeaf(sorted, barLeaf(b))).toBe(true)
    expect(hasSortedLeaf(sorted, barLeaf(bar('ZZ9')))).toBe(false)
    expect(hasSortedLeaf(sorted, zeroHash)).toBe(false)
    expect(hasSortedLeaf(new Uint8Array(0), barLeaf(bars[0]))).toBe(false)
    const twice = collectBarLeaves()
    twice.add(bars[0])
    expect(() => twice.add(bars[0])).toThrow(BarHashInputError)
  })

  it('sums the fine weights, and makes a vault id from the tidied name', () => {
    expect(totalFineWei([bar('A1', '401.084'), bar('A2', '0.001')])).toBe(ozToWei('401.085'))
    expect(vaultId('LDN-1')).toBe(keccak256(toBytes('LDN-1')))
    expect(vaultId('  LDN-1 ')).toBe(vaultId('LDN-1'))
    expect(vaultId('Zurich  Free\tPort')).toBe(keccak256(toBytes('Zurich Free Port')))
    expect(vaultId('LDN-1')).not.toBe(vaultId('ldn-1'))
    expect(() => vaultId('  ')).toThrow(BarHashInputError)
  })
})
