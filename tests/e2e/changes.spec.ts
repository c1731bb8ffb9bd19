import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { baseUrl, expect, loginAs, test } from './fixtures'

// Control changes need a second admin, in the browser: an admin asks on /admin/controls to
// allow a recipient, which is not listed until admin2 confirms it on /admin/changes; the
// author's own change offers no confirm.

test('a recipient asked for by one admin is allowed only once a second admin confirms it', async ({
  page,
  browser,
}) => {
  const address = getAddress(privateKeyToAddress(generatePrivateKey()))
  const label = `e2e change ${Date.now().toString(36)}`

  await loginAs(page, 'admin')
  await page.goto('/admin/controls')
  await page.getByLabel('Address', { exact: true }).fill(address.toLowerCase())
  await page.getByLabel('Label', { exact: true }).fill(label)
  await page.getByRole('button', { name: 'Add recipient' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Ask to add' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'awaits a second admin' })).toBeVisible()
  const allowlist = page.getByRole('table', { name: 'Recipient allowlist' })
  await page.reload()
  await expect(allowlist).not.toContainText(address)

  const summary = `Add ${address} (${label}) to the recipient allowlist`
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Changes' }).click()
  const mine = page
    .getByRole('table', { name: 'Awaiting a second admin' })
    .getByRole('row')
    .filter({ hasText: summary })
  await expect(mine).toContainText('yours: another admin decides')
  await expect(mine.getByRole('button', { name: 'Confirm' })).toHaveCount(0)

  const second = await browser.newContext({ baseURL: baseUrl() })
  try {
    const page2 = await second.newPage()
    await loginAs(page2, 'admin2')
    await page2.goto('/admin/changes')
    const row = page2
      .getByRole('table', { name: 'Awaiting a second admin' })
      .getByRole('row')
      .filter({ hasText: summary })
    await expect(row).toContainText('admin@mintdesk.local')
    await row.getByRole('button', { name: 'Confirm' }).click()
    await page2.getByRole('dialog').getByRole('button', { name: 'Confirm change' }).click()
    await expect(page2.getByRole('status').filter({ hasText: `Applied: ${summary}` })).toBeVisible()
    await expect(page2.getByRole('table', { name: 'Recently decided' })).toContainText(summary)
  } finally {
    await second.close()
  }

  await page.goto('/admin/controls')
  await expect(allowlist.getByRole('row').filter({ hasText: address })).toContainText('admin2@mintdesk.local')
})
