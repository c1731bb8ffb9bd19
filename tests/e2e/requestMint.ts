import type { APIRequestContext } from '@playwright/test'
import { allowRecipient, baseUrl, expect, type MintAccepted, signedInRequest, stockTestVault } from './fixtures'

/** anvil's account 1, the recipient of the approvals specs' mints */
export const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SHA256_OF_TEST = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

export type Requested = { orderId: string; vault: string; serials: string[] }

/**
 * A two-bar mint (802.168 oz) requested through the API by `requester` (the form has its
 * own spec), from a vault of its own that an admin imports first: 202 awaiting_approval.
 */
export async function requestMint(requester: APIRequestContext): Promise<Requested> {
  const admin = await signedInRequest('admin')
  await allowRecipient(admin, RECIPIENT)
  const { vault, bars } = await stockTestVault(admin, { prefix: 'APR', count: 2 })
  await admin.dispose()
  const res = await requester.post(`${baseUrl()}/api/gold/mint`, {
    headers: { origin: baseUrl() },
    data: {
      to: RECIPIENT,
      amount: '802.168',
      vaultProof: {
        vault,
        receiptRef: `VR-${vault}`,
        documentSha256: SHA256_OF_TEST,
        bars: bars.map((b) => ({ serial: b.serial, refiner: b.refiner })),
      },
    },
  })
  expect(res.status(), await res.text()).toBe(202)
  const accepted = (await res.json()) as MintAccepted
  expect(accepted.status).toBe('awaiting_approval')
  expect(accepted.jobId).toBeUndefined()
  return { orderId: accepted.orderId, vault, serials: bars.map((b) => b.serial) }
}
