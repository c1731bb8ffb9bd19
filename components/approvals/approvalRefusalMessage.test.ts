import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/web/errors/api'
import { NoWalletError, WalletRejectedError, WrongAccountError } from '@/lib/web/errors/wallet'
import { mintApprovalSchema } from '@/lib/web/signing/apiTypes'
import { mintApprovalAnswer } from '@/tests/fixtures/mintApprovalAnswer'
import { approvalRefusalMessage } from './approvalRefusalMessage'
import { describeIntent } from './describeIntent'

function answered(status: number, code: string): Response {
  return new Response(JSON.stringify({ error: { code, message: `server text for ${code}` } }), { status })
}

describe('why an approval failed, in words', () => {
  it("names each of the approve route's refusals by its code", async () => {
    expect(approvalRefusalMessage(await ApiError.from(answered(403, 'self_approval')))).toBe(
      'you requested this order, and a second person must approve it.',
    )
    expect(approvalRefusalMessage(await ApiError.from(answered(409, 'already_signed')))).toBe(
      'you have signed this order already; it waits for another approver.',
    )
    expect(approvalRefusalMessage(await ApiError.from(answered(422, 'invalid_signature')))).toContain(
      'the signature was not accepted: it must come from the key bound to you',
    )
    expect(approvalRefusalMessage(await ApiError.from(answered(409, 'not_awaiting_approval')))).toBe(
      'the order is no longer awaiting approval: someone decided on it meanwhile.',
    )
  })

  it("a code it does not know gives the server's sentence; the wallet's refusals give theirs", async () => {
    expect(approvalRefusalMessage(await ApiError.from(answered(422, 'over_limit')))).toBe('server text for over_limit')
    expect(approvalRefusalMessage(new NoWalletError())).toMatch(/^no browser wallet found/)
    expect(approvalRefusalMessage(new WalletRejectedError())).toBe(
      'the request was declined in the wallet: nothing was signed.',
    )
    expect(approvalRefusalMessage(new WrongAccountError({ account: '0xabc', bound: ['0xdef'] }))).toBe(
      "the wallet's account 0xabc is not the key bound to you (0xdef): switch accounts in the wallet.",
    )
    expect(approvalRefusalMessage(new Error('socket hang up at 10.0.0.3'))).toBe('the request failed.')
  })
})

describe('the intent in words', () => {
  const approval = mintApprovalSchema.parse(mintApprovalAnswer)
  const order = { to: approval.typedData.message.to.toLowerCase(), amount: '802.168' }

  it('reads the amount in fine oz, the deadline as a time, and matches the order (addresses without case)', () => {
    const intent = describeIntent({ approval, order, now: new Date('2026-12-01T00:00:00Z') })
    expect(intent).toMatchObject({
      amountOz: '802.168',
      deadline: '2030-03-17T17:46:40.000Z',
      expired: false,
      chainId: '31337',
      mismatches: [],
    })
  })

  it('a deadline passed is expired; an amount off by one wei is a mismatch', () => {
    expect(describeIntent({ approval, order, now: new Date('2030-03-17T17:46:40Z') }).expired).toBe(true)
    const offByOne = {
      ...approval,
      typedData: { ...approval.typedData, message: { ...approval.typedData.message, amount: '802168000000000000001' } },
    }
    const intent = describeIntent({ approval: offByOne, order, now: new Date(0) })
    expect(intent.amountOz).toBe('802.168000000000000001')
    expect(intent.mismatches).toEqual(["the intent's amount is not the order's 802.168 oz"])
  })
})
