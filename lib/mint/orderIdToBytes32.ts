import type { Hex } from 'viem'
import { InvalidOrderIdError } from '@/lib/errors/mint'
import { isUuid } from '@/lib/mint/isUuid'

/**
 * Order ids are uuids (16 bytes); the token takes a bytes32. The mapping is fixed by
 * this file and must never change (the contract remembers minted ids forever):
 * the 16 uuid bytes are LEFT-padded with 16 zero bytes, i.e. the bytes32 is the uuid
 * read as a big-endian number, `uint256(uuid)`. Output is lowercase hex.
 *
 *   0b9f3a9c-6f1e-4c55-9a11-2f4d8b6e7c01
 *   -> 0x000000000000000000000000000000000b9f3a9c6f1e4c559a112f4d8b6e7c01
 */

const ORDER_BYTES32_RE = /^0x0{32}([0-9a-f]{32})$/i

export type OrderIdToBytes32ReturnType = Hex

/** uuid -> bytes32 (zero-padded on the left). */
export function orderIdToBytes32(orderId: string): OrderIdToBytes32ReturnType {
  if (!isUuid(orderId)) throw new InvalidOrderIdError(`order id '${orderId}' is not a uuid`)
  return `0x${'0'.repeat(32)}${orderId.replaceAll('-', '').toLowerCase()}`
}

export type Bytes32ToOrderIdReturnType = string

/** The inverse of orderIdToBytes32: bytes32 -> lowercase uuid. */
export function bytes32ToOrderId(value: Hex): Bytes32ToOrderIdReturnType {
  const m = ORDER_BYTES32_RE.exec(value)
  if (!m) throw new InvalidOrderIdError(`${value} is not a uuid left-padded to 32 bytes`)
  const h = m[1].toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
