import { DerParseError } from '@/worker/errors/kms'

/**
 * A small, strict DER reader: just enough ASN.1 for what KMS returns, a
 * SubjectPublicKeyInfo (GetPublicKey) and an ECDSA-Sig-Value (Sign). Only definite,
 * minimally encoded lengths and single-byte tags are accepted; anything else is a
 * DerParseError, never a best guess.
 */

export const DerTag = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  objectIdentifier: 0x06,
  sequence: 0x30,
} as const

export type DerElement = {
  tag: number
  /** the element's content octets (a view into the input, not a copy) */
  content: Uint8Array
  /** offset of the first byte after this element */
  end: number
}

/** Reads one element (tag, length, content) at `offset`. */
export function parseDerElement(bytes: Uint8Array, offset = 0): DerElement {
  if (offset >= bytes.length) throw new DerParseError(`expected an element at offset ${offset}, input ends`)
  const tag = bytes[offset]
  if ((tag & 0x1f) === 0x1f) throw new DerParseError(`multi-byte tag at offset ${offset}`)
  let pos = offset + 1
  if (pos >= bytes.length) throw new DerParseError(`missing length at offset ${pos}`)
  const first = bytes[pos++]
  let length: number
  if (first < 0x80) {
    length = first
  } else if (first === 0x80) {
    throw new DerParseError('indefinite length')
  } else {
    const count = first & 0x7f
    if (count > 4) throw new DerParseError(`length of ${count} bytes`)
    if (pos + count > bytes.length) throw new DerParseError('length runs past the input')
    if (bytes[pos] === 0) throw new DerParseError('length with a leading zero byte')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + bytes[pos++]
    if (length < 0x80) throw new DerParseError('long-form length below 128')
  }
  const end = pos + length
  if (end > bytes.length)
    throw new DerParseError(`element at offset ${offset} claims ${length} bytes, ${bytes.length - pos} left`)
  return { tag, content: bytes.subarray(pos, end), end }
}

/** Reads an element that must have `tag`. */
export function expectDerElement(bytes: Uint8Array, offset: number, tag: number, what: string): DerElement {
  const el = parseDerElement(bytes, offset)
  if (el.tag !== tag) {
    throw new DerParseError(`${what}: expected tag 0x${hex(tag)}, got 0x${hex(el.tag)}`)
  }
  return el
}

/** The elements of a constructed element's content, in order, covering it exactly. */
export function parseDerChildren(content: Uint8Array): DerElement[] {
  const children: DerElement[] = []
  let offset = 0
  while (offset < content.length) {
    const el = parseDerElement(content, offset)
    children.push(el)
    offset = el.end
  }
  return children
}

/** Reads `bytes` as exactly one element with `tag`: trailing bytes are an error. */
export function parseDerOnly(bytes: Uint8Array, tag: number, what: string): DerElement {
  const el = expectDerElement(bytes, 0, tag, what)
  if (el.end !== bytes.length) throw new DerParseError(`${what}: ${bytes.length - el.end} trailing bytes`)
  return el
}

/** A non-negative INTEGER's value; rejects negative numbers and non-minimal encodings. */
export function derUnsignedInteger(content: Uint8Array, what: string): bigint {
  if (content.length === 0) throw new DerParseError(`${what}: empty INTEGER`)
  if (content[0] & 0x80) throw new DerParseError(`${what}: negative INTEGER`)
  if (content.length > 1 && content[0] === 0 && !(content[1] & 0x80)) {
    throw new DerParseError(`${what}: INTEGER with an unnecessary leading zero`)
  }
  let value = 0n
  for (const b of content) value = (value << 8n) | BigInt(b)
  return value
}

/** An OBJECT IDENTIFIER's dotted form, e.g. "1.3.132.0.10". */
export function derObjectIdentifier(content: Uint8Array): string {
  if (content.length === 0) throw new DerParseError('empty OBJECT IDENTIFIER')
  const arcs: bigint[] = []
  let value = 0n
  let started = false
  for (let i = 0; i < content.length; i++) {
    const b = content[i]
    if (!started && b === 0x80) throw new DerParseError('OBJECT IDENTIFIER arc with a leading 0x80')
    started = true
    value = (value << 7n) | BigInt(b & 0x7f)
    if (!(b & 0x80)) {
      arcs.push(value)
      value = 0n
      started = false
    } else if (i === content.length - 1) {
      throw new DerParseError('OBJECT IDENTIFIER ends inside an arc')
    }
  }
  const [first, ...rest] = arcs
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n]
  return [...head, ...rest].join('.')
}

/** A BIT STRING's bits as bytes; only whole bytes (0 unused bits) are accepted. */
export function derBitStringBytes(content: Uint8Array, what: string): Uint8Array {
  if (content.length === 0) throw new DerParseError(`${what}: empty BIT STRING`)
  if (content[0] !== 0) throw new DerParseError(`${what}: BIT STRING with ${content[0]} unused bits`)
  return content.subarray(1)
}

function hex(n: number): string {
  return n.toString(16).padStart(2, '0')
}

export type SubjectPublicKeyInfo = {
  /** algorithm OID, e.g. 1.2.840.10045.2.1 (id-ecPublicKey) */
  algorithm: string
  /** the algorithm's parameters when they are an OID (the named curve for EC keys) */
  parameters: string | undefined
  /** the subjectPublicKey BIT STRING's bytes */
  publicKey: Uint8Array
}

/**
 * RFC 5280 SubjectPublicKeyInfo:
 * `SEQUENCE { SEQUENCE { algorithm OID, parameters ANY OPTIONAL }, subjectPublicKey BIT STRING }`
 */
export function parseSubjectPublicKeyInfo(der: Uint8Array): SubjectPublicKeyInfo {
  const outer = parseDerOnly(der, DerTag.sequence, 'SubjectPublicKeyInfo')
  const parts = parseDerChildren(outer.content)
  if (parts.length !== 2) throw new DerParseError(`SubjectPublicKeyInfo has ${parts.length} parts, expected 2`)
  const [algorithmId, key] = parts
  if (algorithmId.tag !== DerTag.sequence) throw new DerParseError('AlgorithmIdentifier is not a SEQUENCE')
  if (key.tag !== DerTag.bitString) throw new DerParseError('subjectPublicKey is not a BIT STRING')
  const algo = parseDerChildren(algorithmId.content)
  if (algo.length < 1 || algo.length > 2) throw new DerParseError(`AlgorithmIdentifier has ${algo.length} parts`)
  if (algo[0].tag !== DerTag.objectIdentifier) throw new DerParseError('algorithm is not an OBJECT IDENTIFIER')
  const params = algo[1]
  return {
    algorithm: derObjectIdentifier(algo[0].content),
    parameters: params?.tag === DerTag.objectIdentifier ? derObjectIdentifier(params.content) : undefined,
    publicKey: derBitStringBytes(key.content, 'subjectPublicKey'),
  }
}
