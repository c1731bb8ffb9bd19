import { hashMessage, recoverAddress, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { isBaseError } from '@/lib/errors/BaseError'
import { mintApprovalSchema } from '@/lib/web/signing/apiTypes'
import { toViemTypedData } from '@/lib/web/signing/toViemTypedData'
import { mintApprovalAnswer as approvalAnswer } from '@/tests/fixtures/mintApprovalAnswer'
import { createTestWallet } from '@/tests/helpers/createTestWallet'
import { personalSignWithWallet } from './personalSignWithWallet'
import { readInjectedProvider } from './readInjectedProvider'
import { signTypedDataWithWallet } from './signTypedDataWithWallet'

// The wallet layer against a stand-in for the browser's wallet extension (the one third
// party here), which signs with a real key: signatures recover to that key.

const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
const other = privateKeyToAccount(`0x${'22'.repeat(32)}`)

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!isBaseError(error)) throw new Error(`expected a BaseError, got ${String(error)}`)
  return error.code
}

describe('the injected wallet', () => {
  const { typedData } = mintApprovalSchema.parse(approvalAnswer)

  it('signs the typed data exactly as the API gave it: the signature recovers to the wallet key', async () => {
    const wallet = createTestWallet({ account })
    const signed = await signTypedDataWithWallet(wallet.provider, { typedData, bound: [account.address.toLowerCase()] })
    expect(signed.address).toBe(account.address)
    expect(await recoverTypedDataAddress({ ...toViemTypedData(typedData), signature: signed.signature })).toBe(
      account.address,
    )
    expect(wallet.calls).toEqual(['eth_requestAccounts', 'eth_signTypedData_v4'])
  })

  it('refuses an account that is not the key bound to the person, before asking the wallet to sign', async () => {
    const wallet = createTestWallet({ account })
    expect(await codeOf(signTypedDataWithWallet(wallet.provider, { typedData, bound: [other.address] }))).toBe(
      'wrong_account',
    )
    expect(await codeOf(signTypedDataWithWallet(wallet.provider, { typedData, bound: [] }))).toBe('wrong_account')
    expect(wallet.calls).not.toContain('eth_signTypedData_v4')
  })

  it('a request the person rejects (4001) is wallet_rejected; any other failure is wallet_failed', async () => {
    const rejecting = createTestWallet({ account, reject: true })
    expect(await codeOf(signTypedDataWithWallet(rejecting.provider, { typedData }))).toBe('wallet_rejected')
    expect(await codeOf(personalSignWithWallet(rejecting.provider, { message: 'bind' }))).toBe('wallet_rejected')
    const broken = { request: async () => Promise.reject(new Error('internal JSON-RPC error')) }
    const provider = readInjectedProvider({ ethereum: broken })
    if (provider === null) throw new Error('an object with request is a provider')
    expect(await codeOf(signTypedDataWithWallet(provider, { typedData }))).toBe('wallet_failed')
  })

  it('personal_sign of the binding text recovers to the wallet key', async () => {
    const wallet = createTestWallet({ account })
    const message = 'mintdesk: bind this key to approver@mintdesk.local (nonce 42)'
    const signed = await personalSignWithWallet(wallet.provider, { message })
    expect(await recoverAddress({ hash: hashMessage(message), signature: signed.signature })).toBe(account.address)
  })

  it('no window.ethereum, or one without request, is no wallet', () => {
    expect(readInjectedProvider({})).toBeNull()
    expect(readInjectedProvider({ ethereum: {} })).toBeNull()
    expect(readInjectedProvider({ ethereum: createTestWallet({ account }).provider })).not.toBeNull()
  })
})

describe('the answers the browser reads', () => {
  it('keeps every field of the typed data (what the wallet signs is what the server gave)', () => {
    const withExtra = {
      ...approvalAnswer,
      typedData: { ...approvalAnswer.typedData, domain: { ...approvalAnswer.typedData.domain, salt: '0x01' } },
    }
    expect(mintApprovalSchema.parse(withExtra).typedData).toEqual(withExtra.typedData)
  })

  it('refuses an answer whose numbers are JSON numbers or whose recipient is not an address', () => {
    const amountAsNumber = {
      ...approvalAnswer,
      typedData: { ...approvalAnswer.typedData, message: { ...approvalAnswer.typedData.message, amount: 802 } },
    }
    expect(mintApprovalSchema.safeParse(amountAsNumber).success).toBe(false)
    const badTo = {
      ...approvalAnswer,
      typedData: { ...approvalAnswer.typedData, message: { ...approvalAnswer.typedData.message, to: 'alice' } },
    }
    expect(mintApprovalSchema.safeParse(badTo).success).toBe(false)
  })
})
