import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, concat, type Hex, hexToBytes, keccak256, toBytes, zeroHash } from 'viem'
import { BaseError } from '@/lib/errors/BaseError'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'

/**
 * How bars and vaults are hashed for GoldMinter's typed data (contracts/GoldMinter.sol),
 * pure and client-safe: the web, the worker, the tests and a custodian's own tool compute
 * the same values from the same bars.
 *
 * - A bar's leaf values are `[serialKey, refinerKey, fineWei]`, ABI types
 *   `['string', 'string', 'uint256']`: the serial and the refiner as the desk identifies a
 *   bar (lib/vault/normalizeBarKey.ts: printable ASCII only, upper-cased, spaces and
 *   dashes removed: 'Valcambi SA' -> 'VALCAMBISA', 'ab-123 456' -> 'AB123456') and the
 *   fine weight in wei (fine troy oz x 10^18: '401.084' -> 401084000000000000000).
 * - `barsRoot` (in a custodian's BarList) is the root of OpenZeppelin's StandardMerkleTree
 *   of those leaves, exactly what `StandardMerkleTree.of(values, ['string', 'string',
 *   'uint256']).root` of @openzeppelin/merkle-tree gives: each leaf hashed as
 *   keccak256(keccak256(abi.encode(serialKey, refinerKey, fineWei))), the leaf hashes
 *   sorted ascending, a complete binary tree over them in array order (node i has the
 *   children 2i+1 and 2i+2, the leaves fill the end of the array from the back), each node
 *   keccak256 of its two children's hashes, smaller first. A proof of one bar
 *   (barsProof) checks with OpenZeppelin's MerkleProof.verify. No bars: bytes32(0).
 * - `barsHash` (in a MintIntent or RedemptionIntent) is the same root over that order's
 *   bars: it binds the set of bars, in any order, to the signature.
 * - `vaultId` (a BarList's `vault`) is keccak256 of the vault's name in UTF-8, tidied as
 *   the desk tidies text (NFC, trimmed, inner runs of whitespace as one space):
 *   vaultId('LDN-1') = keccak256('LDN-1') (`cast keccak LDN-1`).
 */

/** A bar as the hashes see it; serial and refiner as written (they are normalized here). */
export type BarHashInput = { serial: string; refiner: string; fineWei: bigint }

/** The bar's key text could not make a key, or a bar was given twice. */
export class BarHashInputError extends BaseError {
  override name = 'BarHashInputError'
  constructor(message: string) {
    super('internal_error', message)
  }
}

export const BAR_LEAF_ENCODING = ['string', 'string', 'uint256'] as const

/** The leaf values of a bar, `[serialKey, refinerKey, fineWei]` (for StandardMerkleTree.of). */
export function barLeafValues(bar: BarHashInput): [string, string, bigint] {
  return [key(bar.serial, 'serial'), key(bar.refiner, 'refiner'), bar.fineWei]
}

/** keccak256(keccak256(abi.encode(serialKey, refinerKey, fineWei))): the bar's leaf hash. */
export function barLeaf(bar: BarHashInput): Hex {
  return bytesToHex(leafBytes(bar, barLeafValues(bar)))
}

const utf8 = new TextEncoder()
const MAX_UINT256 = (1n << 256n) - 1n

/**
 * The leaf hash as bytes, from the bar's leaf values. abi.encode(string, string, uint256) is
 * written straight into bytes (what encodeAbiParameters gives, without its hex text): the two
 * strings' offsets, the number, then each string's length and its UTF-8 bytes padded to 32.
 * The leaves and the tree's nodes are hashed with @noble/hashes' keccak_256 on bytes: the same
 * digest as viem's keccak256 at about half its CPU (a root of 100,000 bars is some 400,000 permutations).
 */
function leafBytes(bar: BarHashInput, [serialKey, refinerKey, fineWei]: [string, string, bigint]): Uint8Array {
  if (fineWei < 0n) throw new BarHashInputError(`bar ${bar.serial}: fine weight is negative`)
  if (fineWei > MAX_UINT256) throw new BarHashInputError(`bar ${bar.serial}: fine weight is over uint256`)
  const a = utf8.encode(serialKey)
  const b = utf8.encode(refinerKey)
  const padded = (n: number) => Math.ceil(n / 32) * 32
  const offsetB = 96 + 32 + padded(a.length)
  const encoded = new Uint8Array(offsetB + 32 + padded(b.length))
  const view = new DataView(encoded.buffer)
  view.setUint32(28, 96)
  view.setUint32(60, offsetB)
  for (let i = 95, v = fineWei; v > 0n; i--, v >>= 8n) encoded[i] = Number(v & 0xffn)
  view.setUint32(96 + 28, a.length)
  encoded.set(a, 128)
  view.setUint32(offsetB + 28, b.length)
  encoded.set(b, offsetB + 32)
  return keccak_256(keccak_256(encoded))
}

/** Collects bars' leaf hashes as 32-byte slots of one byte array (100,000 bars: 3.2 MB). */
export type BarLeafCollector = {
  /** adds the bar's leaf; the same bar (by its keys) twice throws */
  add(bar: BarHashInput): void
  /** the leaves ascending, 32 bytes each (a new array; the collector is done after) */
  sorted(): Uint8Array
}

/**
 * A collector of leaf hashes, for a custodian's list of 100,000 bars read in pages or
 * mapped on the fly: no hex string per leaf, no copy of the bars.
 */
export function collectBarLeaves(): BarLeafCollector {
  const seen = new Set<string>()
  let leaves = new Uint8Array(32 * 1024)
  let n = 0
  return {
    add(bar) {
      const [serialKey, refinerKey] = barLeafValues(bar)
      const id = `${serialKey}\u0000${refinerKey}`
      if (seen.has(id)) throw new BarHashInputError(`bar ${serialKey} (${refinerKey}) is given twice`)
      seen.add(id)
      const leaf = leafBytes(bar, [serialKey, refinerKey, bar.fineWei])
      if ((n + 1) * 32 > leaves.length) {
        const grown = new Uint8Array(leaves.length * 2)
        grown.set(leaves)
        leaves = grown
      }
      leaves.set(leaf, n * 32)
      n++
    },
    sorted() {
      seen.clear()
      const order = new Uint32Array(n)
      for (let i = 0; i < n; i++) order[i] = i
      order.sort((x, y) => compareSlots(leaves, x * 32, leaves, y * 32))
      const out = new Uint8Array(n * 32)
      for (let i = 0; i < n; i++) out.set(leaves.subarray(order[i] * 32, order[i] * 32 + 32), i * 32)
      leaves = new Uint8Array(0)
      return out
    },
  }
}

/** The StandardMerkleTree root over leaves sorted ascending (32-byte slots; bytes32(0) for none). */
export function rootOfSortedLeaves(sorted: Uint8Array): Hex {
  const n = sorted.length / 32
  if (n === 0) return zeroHash
  // leaf i at node 2n - 2 - i, as OpenZeppelin's makeMerkleTree places them
  const tree = new Uint8Array((2 * n - 1) * 32)
  for (let i = 0; i < n; i++) tree.set(sorted.subarray(i * 32, i * 32 + 32), (2 * n - 2 - i) * 32)
  const pair = new Uint8Array(64)
  for (let i = n - 2; i >= 0; i--) {
    const left = (2 * i + 1) * 32
    const right = left + 32
    const leftFirst = compareSlots(tree, left, tree, right) <= 0
    pair.set(tree.subarray(leftFirst ? left : right, (leftFirst ? left : right) + 32), 0)
    pair.set(tree.subarray(leftFirst ? right : left, (leftFirst ? right : left) + 32), 32)
    tree.set(keccak_256(pair), i * 32)
  }
  return bytesToHex(tree.subarray(0, 32))
}

/** Whether the leaf hash is one of the sorted leaves (a binary search). */
export function hasSortedLeaf(sorted: Uint8Array, leaf: Hex): boolean {
  const target = hexToBytes(leaf)
  if (target.length !== 32) return false
  let lo = 0
  let hi = sorted.length / 32 - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const c = compareSlots(sorted, mid * 32, target, 0)
    if (c === 0) return true
    if (c < 0) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

/**
 * The StandardMerkleTree root of the bars (bytes32(0) for none); the same bar twice throws.
 * The bars are read once, one at a time (any iterable, so a caller maps its own rows on the fly).
 */
export function barsRoot(bars: Iterable<BarHashInput>): Hex {
  const leaves = collectBarLeaves()
  for (const bar of bars) leaves.add(bar)
  return rootOfSortedLeaves(leaves.sorted())
}

/** Compares the 32-byte slots at a[i..] and b[j..] as unsigned numbers. */
function compareSlots(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  for (let k = 0; k < 32; k++) if (a[i + k] !== b[j + k]) return a[i + k] - b[j + k]
  return 0
}

/** The barsHash of a MintIntent or RedemptionIntent: barsRoot of the order's bars. */
export function barsHash(bars: readonly BarHashInput[]): Hex {
  return barsRoot(bars)
}

/** The proof that `bar` is one of `bars` under barsRoot(bars), for MerkleProof.verify(proof, root, leaf). */
export function barsProof(bars: readonly BarHashInput[], bar: BarHashInput): Hex[] {
  const leaves = sortedLeaves(bars)
  const leaf = barLeaf(bar)
  const position = leaves.indexOf(leaf)
  if (position < 0) throw new BarHashInputError(`bar ${bar.serial} (${bar.refiner}) is not among the bars`)
  const tree = merkleTree(leaves)
  const proof: Hex[] = []
  for (let i = tree.length - 1 - position; i > 0; i = Math.floor((i - 1) / 2)) {
    proof.push(tree[i % 2 === 1 ? i + 1 : i - 1])
  }
  return proof
}

/** The sum of the bars' fine weights (wei): a BarList's totalFineWei. */
export function totalFineWei(bars: Iterable<BarHashInput>): bigint {
  let total = 0n
  for (const bar of bars) total += bar.fineWei
  return total
}

/** A BarList's `vault`: keccak256 of the vault's tidied name in UTF-8. */
export function vaultId(name: string): Hex {
  const tidied = name.normalize('NFC').trim().replace(/\s+/gu, ' ')
  if (tidied === '') throw new BarHashInputError('a vault name is not empty')
  return keccak256(toBytes(tidied))
}

/**
 * The complete binary tree of OpenZeppelin's merkle-tree library (its makeMerkleTree)
 * over the given leaf hashes, in array order: tree[0] is the root, leaf i sits at
 * tree[length - 1 - i].
 */
export function merkleTree(leaves: readonly Hex[]): Hex[] {
  if (leaves.length === 0) throw new BarHashInputError('a Merkle tree needs at least one leaf')
  const tree = new Array<Hex>(2 * leaves.length - 1)
  for (const [i, leaf] of leaves.entries()) tree[tree.length - 1 - i] = leaf.toLowerCase() as Hex
  for (let i = tree.length - 1 - leaves.length; i >= 0; i--) tree[i] = hashPair(tree[2 * i + 1], tree[2 * i + 2])
  return tree
}

// lowercase 0x-hex of one length: comparing the strings compares the numbers
function hashPair(a: Hex, b: Hex): Hex {
  return keccak256(a <= b ? concat([a, b]) : concat([b, a]))
}

/** The bars' leaf hashes, ascending; a bar (serial and refiner keys) given twice throws. */
function sortedLeaves(bars: readonly BarHashInput[]): Hex[] {
  const seen = new Set<string>()
  for (const bar of bars) {
    const [serialKey, refinerKey] = barLeafValues(bar)
    const id = `${serialKey}\u0000${refinerKey}`
    if (seen.has(id)) throw new BarHashInputError(`bar ${serialKey} (${refinerKey}) is given twice`)
    seen.add(id)
  }
  return bars.map(barLeaf).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

function key(value: string, field: 'serial' | 'refiner'): string {
  const normalized = normalizeBarKey(value)
  if (!normalized.ok) throw new BarHashInputError(`a bar's ${field} ${normalized.message}`)
  return normalized.key
}
