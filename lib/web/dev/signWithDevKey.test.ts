import { hashMessage, recoverAddress, recoverTypedDataAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { isBaseError } from '@/lib/errors/BaseError'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { mintApprovalSchema } from '@/lib/web/signing/apiTypes'
import { toViemTypedData } from '@/lib/web/signing/toViemTypedData'
import { mintApprovalAnswer } from '@/tests/fixtures/mintApprovalAnswer'
import { signWithDevKey } from './signWithDevKey'

// The dev signer signs with the signed-in user's own dev key (the public test mnemonic,
// m/44'/60'/0'/0/i), and does not exist in production mode.

const approver: SessionUser = { id: 'u-1', email: 'approver@mintdesk.local', role: 'approver' }
const admin2: SessionUser = { id: 'u-2', email: 'admin2@mintdesk.local', role: 'admin' }
const staff: SessionUser = { id: 'u-3', email: 'staff@mintdesk.local', role: 'staff' }
const { typedData } = mintApprovalSchema.parse(mintApprovalAnswer)

/** anvil's accounts 10 and 14 of the test mnemonic, written out: an independent check of the derivation */
const INDEX_10 = '0xBcd4042DE499D14e55001CcbB24a551F3b954096'
const INDEX_14 = '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097'

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  return isBaseError(error) ? `${error.code}: ${error.message}` : `no refusal (${String(error)})`
}

describe('the dev signer', () => {
  it("signs typed data with the user's dev key (approver@: index 10)", async () => {
    const signed = await signWithDevKey({ production: false }, { user: approver, body: { typedData } })
    expect(signed.address).toBe(INDEX_10)
    expect(await recoverTypedDataAddress({ ...toViemTypedData(typedData), signature: signed.signature })).toBe(INDEX_10)
  })

  it('signs a text as personal_sign would, with the key of whoever is signed in (admin2@: index 14)', async () => {
    const message = 'bind this key'
    const signed = await signWithDevKey({ production: false }, { user: admin2, body: { message } })
    expect(signed.address).toBe(INDEX_14)
    expect(await recoverAddress({ hash: hashMessage(message), signature: signed.signature })).toBe(signed.address)
  })

  it('production mode refuses it (404) for everyone, before any key is derived', async () => {
    expect(await refusal(signWithDevKey({ production: true }, { user: approver, body: { typedData } }))).toBe(
      'not_found: Dev signer not found.',
    )
    expect(await refusal(signWithDevKey({ production: true }, { user: admin2, body: { message: 'x' } }))).toBe(
      'not_found: Dev signer not found.',
    )
  })

  it('a user who holds no dev key (staff) gets 404', async () => {
    expect(await refusal(signWithDevKey({ production: false }, { user: staff, body: { message: 'x' } }))).toBe(
      'not_found: Dev key not found.',
    )
  })

  it('typed data whose message does not fit its types is refused by viem, not signed', async () => {
    const broken = { ...typedData, message: { ...typedData.message, amount: 'lots' } }
    await expect(
      signWithDevKey({ production: false }, { user: approver, body: { typedData: broken } }),
    ).rejects.toThrow()
  })
})
