import type { Browser, Locator, Page } from '@playwright/test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { devKey } from '../../lib/keys/devKeys'
import { baseUrl, expect, loginAs, signedInRequest, test } from './fixtures'
import { requestMint } from './requestMint'
import { installTestWallet } from './testWallet'

// People sign with their own keys in the browser: an injected EIP-1193 wallet (here a
// stand-in holding a viem key, installed before the page loads) binds its key on
// /account/signing-key with personal_sign; a wallet whose account is not bound to the
// approver is refused before it signs; no wallet at all says so; and in dev mode (the
// e2e stack's) the dev signer signs with the approver's dev key on the server. The
// approve-with-a-wallet flow itself is in approvals.spec.ts.

test.describe.configure({ mode: 'serial' })
test.use({ viewport: { width: 1280, height: 900 } })

/** A page of its own context, signed in as the approver, with a wallet holding `key` (none if undefined). */
async function approverPage(browser: Browser, key?: `0x${string}`): Promise<{ page: Page; calls: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl() })
  const page = await context.newPage()
  const calls = key === undefined ? [] : await installTestWallet(page, privateKeyToAccount(key))
  await loginAs(page, 'approver')
  return { page, calls }
}

function card(page: Page, orderId: string): Locator {
  return page.getByRole('listitem').filter({ has: page.getByRole('link', { name: orderId }) })
}

async function rejectForCleanUp(orderId: string): Promise<void> {
  const approver = await signedInRequest('approver')
  const res = await approver.post(`/api/gold/mint/${orderId}/reject`, {
    headers: { origin: baseUrl() },
    data: { reason: 'e2e clean-up' },
  })
  expect(res.status(), await res.text()).toBe(200)
  await approver.dispose()
}

test('the approver binds a new wallet key on /account/signing-key (personal_sign of the server text)', async ({
  browser,
}) => {
  const key = generatePrivateKey()
  const { page, calls } = await approverPage(browser, key)
  await page.goto('/')
  await page.getByRole('link', { name: 'Signing key', exact: true }).click()
  await expect(page).toHaveURL(/\/account\/signing-key$/)
  await expect(page.getByRole('heading', { name: 'Signing key' })).toBeVisible()
  // the stack bound the approver's dev key (index 10) at start
  const bound = page.getByRole('list', { name: 'Bound keys' })
  await expect(bound).toContainText(devKey('approver').address)

  await page.getByRole('button', { name: 'Bind this wallet' }).click()
  const address = privateKeyToAccount(key).address
  await expect(page.getByRole('status').filter({ hasText: `Bound the key ${address} to you.` })).toBeVisible()
  await expect(bound).toContainText(address)
  expect(calls).toEqual(['eth_requestAccounts', 'personal_sign'])
  await page.context().close()
})

test('a wallet whose account is not bound to the approver is refused before it signs; nothing is posted', async ({
  browser,
  page,
}) => {
  await loginAs(page, 'staff')
  const order = await requestMint(page.context().request)
  const { page: approver, calls } = await approverPage(browser, generatePrivateKey())
  await approver.goto('/approvals')
  const item = card(approver, order.orderId)
  await item.getByRole('button', { name: /^Sign and approve the mint of 802\.168 oz/ }).click()
  await approver
    .getByRole('dialog', { name: 'Sign and approve the mint of 802.168 oz?' })
    .getByRole('button', { name: 'Sign with your wallet' })
    .click()
  await expect(approver.getByRole('alert').filter({ hasText: 'is not the key bound to you' })).toBeVisible()
  expect(calls).not.toContain('eth_signTypedData_v4')
  await expect(card(approver, order.orderId).getByRole('region', { name: 'Intent to sign' })).toContainText(
    '0 of 1 signature',
  )
  await approver.context().close()
  await rejectForCleanUp(order.orderId)
})

test('no wallet in the browser: "Sign and approve" says so', async ({ browser, page }) => {
  await loginAs(page, 'staff')
  const order = await requestMint(page.context().request)
  const { page: approver } = await approverPage(browser)
  await approver.goto('/approvals')
  await card(approver, order.orderId)
    .getByRole('button', { name: /^Sign and approve the mint of 802\.168 oz/ })
    .click()
  await approver.getByRole('button', { name: 'Sign with your wallet' }).click()
  await expect(approver.getByRole('alert').filter({ hasText: 'No browser wallet found' })).toBeVisible()
  await approver.context().close()
  await rejectForCleanUp(order.orderId)
})

test("dev mode: the dev signer signs with the approver's dev key and the order is approved", async ({
  browser,
  page,
}) => {
  await loginAs(page, 'staff')
  const order = await requestMint(page.context().request)
  const { page: approver } = await approverPage(browser)
  await approver.goto('/approvals')
  await card(approver, order.orderId)
    .getByRole('button', { name: /^Sign with the dev key: the mint of 802\.168 oz/ })
    .click()
  await approver
    .getByRole('dialog', { name: 'Sign and approve the mint of 802.168 oz?' })
    .getByRole('button', { name: 'Sign with the dev key' })
    .click()
  await expect(approver.getByRole('status').filter({ hasText: 'Approved the mint of 802.168 oz' })).toBeVisible()
  await expect(card(approver, order.orderId)).toHaveCount(0)
  await approver.context().close()
})

test('the dev signer signs only for a signed-in user who holds a dev key', async () => {
  const staff = await signedInRequest('staff')
  const refused = await staff.post('/api/dev/sign', { headers: { origin: baseUrl() }, data: { message: 'x' } })
  expect(refused.status()).toBe(404)
  await staff.dispose()
  const anonymous = await fetch(`${baseUrl()}/api/dev/sign`, {
    method: 'POST',
    headers: { origin: baseUrl(), 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'x' }),
  })
  expect(anonymous.status).toBe(401)
  const approver = await signedInRequest('approver')
  const signed = await approver.post('/api/dev/sign', { headers: { origin: baseUrl() }, data: { message: 'x' } })
  expect(signed.status(), await signed.text()).toBe(200)
  expect(((await signed.json()) as { address: string }).address).toBe(devKey('approver').address)
  await approver.dispose()
})
