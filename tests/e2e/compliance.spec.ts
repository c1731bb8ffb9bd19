import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { devKey } from '../../lib/keys/devKeys'
import { baseUrl, expect, loginAs, test } from './fixtures'
import { installTestWallet } from './testWallet'

// A freeze through the real pages: an admin asks for it on /admin/compliance, an approver signs its intent on
// /approvals with their wallet (an injected stand-in holding dev key 10), the worker sends it to GoldMinter, and
// /admin/compliance then lists the address as frozen, read from the chain.

test.use({ viewport: { width: 1280, height: 900 } })

test('an admin asks for a freeze, an approver signs it on /approvals, the chain has the address frozen', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const address = getAddress(privateKeyToAddress(generatePrivateKey()))
  const what = `Freeze ${address}`

  await loginAs(page, 'admin')
  await page.goto('/admin/compliance')
  await page.getByLabel('Operation', { exact: true }).selectOption('freeze')
  await page.getByLabel('Addresses (one per line, up to 100)').fill(address)
  await page.getByLabel('Reason', { exact: true }).fill('e2e: a court order')
  await page.getByRole('button', { name: 'Ask for approval' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Asked for: one operation' })).toBeVisible()
  const mine = page.getByRole('table', { name: 'Compliance operations' }).getByRole('row').filter({ hasText: what })
  await expect(mine).toContainText('awaiting approval')
  await expect(mine).toContainText('yours: another person decides')

  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 } })
  try {
    const approver = await context.newPage()
    await installTestWallet(approver, devKey('approver'))
    await loginAs(approver, 'approver')
    await approver.goto('/approvals')
    const row = approver
      .getByRole('table', { name: 'Compliance operations awaiting approval' })
      .getByRole('row')
      .filter({ hasText: what })
    await row.getByRole('button', { name: 'Sign and approve' }).click()
    await approver.getByRole('dialog').getByRole('button', { name: 'Sign and approve' }).click()
    await expect(
      approver.getByRole('status').filter({ hasText: 'Signed: the worker sends it to the chain' }),
    ).toBeVisible()
  } finally {
    await context.close()
  }

  // the chain's frozen list, as the page reads it, once the worker has sent the freeze
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('list', { name: 'On chain now' })).toContainText(address, { timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(mine).toContainText('applied')
})
