import { describe, expect, it } from 'vitest'
import { InvalidOrderIdError } from '@/lib/errors/mint'
import { bytes32ToOrderId, orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

describe('orderIdToBytes32', () => {
  it('left-pads the 16 uuid bytes with zeros', () => {
    expect(orderIdToBytes32('0b9f3a9c-6f1e-4c55-9a11-2f4d8b6e7c01')).toBe(
      '0x000000000000000000000000000000000b9f3a9c6f1e4c559a112f4d8b6e7c01',
    )
  })

  it('lowercases and round-trips', () => {
    const id = crypto.randomUUID()
    expect(bytes32ToOrderId(orderIdToBytes32(id.toUpperCase()))).toBe(id)
  })

  it.each([
    '',
    'not-a-uuid',
    '0b9f3a9c6f1e4c559a112f4d8b6e7c01',
    '0b9f3a9c-6f1e-4c55-9a11-2f4d8b6e7c0',
    ' 0b9f3a9c-6f1e-4c55-9a11-2f4d8b6e7c01',
  ])('rejects %j', (bad) => {
    expect(() => orderIdToBytes32(bad)).toThrow(InvalidOrderIdError)
  })

  it('rejects a bytes32 that is not a left-padded uuid', () => {
    expect(() => bytes32ToOrderId('0x0b9f3a9c6f1e4c559a112f4d8b6e7c01000000000000000000000000000000000')).toThrow(
      InvalidOrderIdError,
    )
    expect(() => bytes32ToOrderId('0x0000000000000000000000000000000100000000000000000000000000000001')).toThrow(
      InvalidOrderIdError,
    )
    expect(() => bytes32ToOrderId('0x1234')).toThrow(InvalidOrderIdError)
  })
})
