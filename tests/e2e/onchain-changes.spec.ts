import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { devKey } from '../../lib/keys/devKeys'
import { baseUrl, expect, loginAs, test } from './fixtures'
import { installTestWallet } from './testWallet'

// A change to GoldMinter's rules, in the browser: admin proposes a new approver key on /admin/changes, signed by
// their injected wallet (an EIP-1193 stand-in holding the admin's key); admin2 confirms it with the dev signer;
// the worker relays both signatures and the change is applied on chain.

test("a new approver key is GoldMinter's once two admins' keys signed it", async ({ page, browser }) => {
  const approver = getAddress(privateKeyToAddress(generatePrivateKey()))
  const summary = `Add ${approver} to GoldMinter's approvers`

  await installTestWallet(page, devKey('admin'))
  await loginAs(page, 'admin')
  await page.goto('/admin/changes')
  await page.getByLabel('Change', { exact: true }).selectOption('approver.add')
  await page.getByLabel('Approver key', { exact: true }).fill(approver)
  await page.getByRole('button', { name: 'Sign and propose' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Signed and proposed' })).toBeVisible()
  const mine = page
    .getByRole('table', { name: 'Awaiting a second admin' })
    .getByRole('row')
    .filter({ hasText: summary })
  await expect(mine).toContainText('yours: another admin decides')

  const second = await browser.newContext({ baseURL: baseUrl() })
  try {
    const page2 = await second.newPage()
    await loginAs(page2, 'admin2')
    await page2.goto('/admin/changes')
    const row = page2
      .getByRole('table', { name: 'Awaiting a second admin' })
      .getByRole('row')
      .filter({ hasText: summary })
    await row.getByRole('button', { name: 'Confirm with the dev key' }).click()
    await page2.getByRole('dialog').getByRole('button', { name: 'Confirm change' }).click()
    await expect(page2.getByRole('status').filter({ hasText: 'the worker sends it to the chain' })).toBeVisible()
    const decided = page2.getByRole('table', { name: 'Recently decided' }).getByRole('row').filter({ hasText: summary })
    await expect(async () => {
      await page2.reload()
      await expect(decided).toContainText('applied', { timeout: 1_000 })
    }).toPass({ timeout: 30_000 })
    await expect(decided).toContainText(/0x[0-9a-f]{64}/)
  } finally {
    await second.close()
  }
})
