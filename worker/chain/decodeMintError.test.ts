import { BaseError, encodeAbiParameters, encodeErrorResult, keccak256, RawContractError, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { decodeMintError } from './decodeMintError'

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('decodeMintError', () => {
  it('decodes each custom error of GoldToken into a sentence', () => {
    const orderId = '0b9f3a9c-6f1e-4c55-9a11-2f4d8b6e7c01'
    const cases = [
      [
        encodeErrorResult({ abi: goldTokenAbi, errorName: 'OrderAlreadyMinted', args: [orderIdToBytes32(orderId)] }),
        `order ${orderId} was already minted`,
      ],
      [encodeErrorResult({ abi: goldTokenAbi, errorName: 'ZeroAddress' }), 'the recipient is the zero address'],
      [
        encodeErrorResult({ abi: goldTokenAbi, errorName: 'TokenAddress' }),
        'the recipient is the token contract itself',
      ],
      [
        encodeErrorResult({ abi: goldTokenAbi, errorName: 'AccountFrozen', args: [ACCOUNT] }),
        `account ${ACCOUNT} is frozen`,
      ],
      [encodeErrorResult({ abi: goldTokenAbi, errorName: 'ZeroAmount' }), 'the amount is zero'],
      [
        encodeErrorResult({
          abi: goldTokenAbi,
          errorName: 'AccessControlUnauthorizedAccount',
          args: [ACCOUNT, keccak256(toHex('MINTER_ROLE'))],
        }),
        `${ACCOUNT} does not hold MINTER_ROLE`,
      ],
    ] as const
    for (const [data, reason] of cases) expect(decodeMintError(data)?.reason).toBe(reason)
    expect(decodeMintError(cases[0][0])).toMatchObject({
      errorName: 'OrderAlreadyMinted',
      args: [orderIdToBytes32(orderId)],
    })
  })

  it('keeps an order id that is not a padded uuid as hex', () => {
    const raw = keccak256('0x01')
    expect(
      decodeMintError(encodeErrorResult({ abi: goldTokenAbi, errorName: 'OrderAlreadyMinted', args: [raw] }))?.reason,
    ).toBe(`order ${raw} was already minted`)
  })

  it('decodes Error(string) and says so for unknown or empty revert data', () => {
    const errorString = `0x08c379a0${encodeAbiParameters([{ type: 'string' }], ['nope']).slice(2)}` as const
    expect(decodeMintError(errorString)).toMatchObject({ errorName: 'Error', reason: 'reverted: nope' })
    expect(decodeMintError('0xdeadbeef')).toMatchObject({
      errorName: undefined,
      reason: 'execution reverted with unknown data 0xdeadbeef',
    })
    expect(decodeMintError('0x')).toMatchObject({ errorName: undefined, reason: 'execution reverted without a reason' })
  })

  it('finds the revert data inside a viem error', () => {
    const data = encodeErrorResult({ abi: goldTokenAbi, errorName: 'ZeroAmount' })
    const wrapped = new BaseError('call failed', { cause: new RawContractError({ data }) })
    expect(decodeMintError(wrapped)?.errorName).toBe('ZeroAmount')
  })

  it('returns undefined for what is not a revert', () => {
    expect(decodeMintError(new Error('ECONNREFUSED'))).toBeUndefined()
    expect(decodeMintError(new BaseError('HTTP request failed'))).toBeUndefined()
    expect(decodeMintError(undefined)).toBeUndefined()
    expect(decodeMintError('not hex')).toBeUndefined()
  })
})
