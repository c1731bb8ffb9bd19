import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { baseUrl, expect, loginAs, settleApproval, sidewaysOverflow, signedInRequest, test } from './fixtures'
import { RECIPIENT, requestMint } from './requestMint'

// The pages as a new user meets them (issue 27's bugs): one confirmed mint requested by staff and approved by the dev
// approvers, then its order page, the reserves lookup, the allowlist, the jobs search and the dead letters, each
// checked for what the issue saw go wrong.

type Minted = { orderId: string; txHash: string }
let minted: Minted

async function confirmedMint(): Promise<Minted> {
  const staff = await signedInRequest('staff')
  const { orderId } = await requestMint(staff)
  await settleApproval({ orderId, status: 'awaiting_approval' })
  let txHash: string | null = null
  await expect
    .poll(
      async () => {
        const order = (await (await staff.get(`/api/gold/mint/${orderId}`)).json()) as {
          status: string
          tx: { hash: string | null } | null
        }
        txHash = order.tx?.hash ?? null
        return order.status
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe('confirmed')
  await staff.dispose()
  if (txHash === null) throw new Error(`order ${orderId} confirmed without a transaction hash`)
  return { orderId, txHash }
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  minted = await confirmedMint()
})

test('the order page fits 1280 px and 1024 px once its transaction hash is shown', async ({ page }) => {
  await loginAs(page, 'staff')
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto(`/mints/${minted.orderId}`)
    await expect(page.getByText(minted.txHash, { exact: true })).toBeVisible()
    expect(await sidewaysOverflow(page), `sideways scroll at ${width} px`).toBe(0)
  }
})

test('/reserves: a refused lookup shows its error alone, not the previous result', async ({ page }) => {
  await page.goto('/reserves')
  const box = page.getByLabel('Address, transaction hash or bar serial')
  await box.fill(RECIPIENT)
  await page.getByRole('button', { name: 'Look up' }).click()
  const result = page.getByRole('region', { name: new RegExp(`^Mint of .* in ${minted.txHash}$`) })
  await expect(result).toBeVisible()

  await box.fill('0x1234')
  await page.getByRole('button', { name: 'Look up' }).click()
  await expect(page.getByText(/Enter an address \(0x and 40 hex digits\), a transaction hash/)).toBeVisible()
  await expect(result).toHaveCount(0)
})

test('/admin/controls: a new attempt clears the last banner; a listed address is refused before the dialog', async ({
  page,
}) => {
  await loginAs(page, 'admin')
  await page.goto('/admin/controls')
  const address = page.getByLabel('Address', { exact: true })
  const label = page.getByLabel('Label', { exact: true })
  const add = page.getByRole('button', { name: 'Add recipient' })

  await address.fill(getAddress(privateKeyToAddress(generatePrivateKey())))
  await label.fill(`e2e banner ${Date.now().toString(36)}`)
  await add.click()
  await page.getByRole('dialog').getByRole('button', { name: 'Ask to add' }).click()
  const banner = page.getByRole('status').filter({ hasText: 'awaits a second admin' })
  await expect(banner).toBeVisible()

  // the next attempt's own error stands alone
  await address.fill('0x12')
  await label.fill('too short')
  await add.click()
  await expect(address).toHaveAttribute('aria-invalid', 'true')
  await expect(banner).toHaveCount(0)

  // RECIPIENT is listed (requestMint allowed it): said at once, no dialog to confirm first
  await address.fill(RECIPIENT.toLowerCase())
  await label.fill('listed already')
  await add.click()
  await expect(page.getByText('This address is on the allowlist already.')).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // Remove is a quiet button on the rows; the red one is the dialog's confirm
  const remove = page.getByRole('button', { name: new RegExp(`^Remove .* \\(${RECIPIENT}\\)$`, 'i') }).first()
  await expect(remove).not.toHaveClass(/bg-red-600/)
  await remove.click()
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Ask to remove' })).toHaveClass(/bg-red-600/)
  await page.getByRole('dialog').getByRole('button', { name: 'Not now' }).click()
})

test('the jobs search finds the short order id the table shows and an address prefix; ?q= from the URL', async ({
  page,
}) => {
  await loginAs(page, 'admin')
  await page.goto('/admin/jobs')
  const search = page.getByRole('searchbox')
  const jobsTable = page.getByRole('table', { name: 'Jobs, newest first' })
  const ourRow = jobsTable
    .getByRole('row')
    .filter({ hasText: minted.orderId.slice(0, 8) })
    .filter({ hasText: 'mint_send' })

  await search.fill(minted.orderId.slice(0, 8))
  await search.press('Enter')
  await expect(ourRow.first()).toBeVisible()

  await search.fill(RECIPIENT.slice(0, 6))
  await search.press('Enter')
  await expect(ourRow.first()).toBeVisible()

  await page.goto('/admin/jobs?q=task:mint_send')
  await expect(search).toHaveValue('task:mint_send')
  await expect(jobsTable.getByRole('row').nth(1)).toBeVisible()
  const tasks = await jobsTable.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''))
  expect(tasks.length).toBeGreaterThan(0)
  for (const text of tasks) expect(text).toContain('mint_send')
})

test('the dev login box lists every seeded user', async ({ page }) => {
  await page.goto('/login')
  const box = page.getByRole('region', { name: 'Dev logins (dev mode only)' })
  for (const email of [
    'staff@mintdesk.local',
    'approver@mintdesk.local',
    'approver2@mintdesk.local',
    'admin@mintdesk.local',
    'admin2@mintdesk.local',
    'auditor@mintdesk.local',
  ])
    await expect(box.getByText(email, { exact: true })).toBeVisible()
})

test(`every page shows times in one format (2026-12-01 17:50:01 UTC), never the browser's or raw ISO`, async ({
  page,
}) => {
  test.setTimeout(120_000)
  await loginAs(page, 'admin')
  const detail = (await (
    await page.context().request.get(`${baseUrl()}/api/admin/jobs?q=${minted.orderId}`)
  ).json()) as {
    items: { id: string }[]
  }
  const pages = [
    '/mints',
    `/mints/${minted.orderId}`,
    '/approvals',
    '/reserves',
    `/reserves?tx=${minted.txHash}`,
    '/admin',
    '/admin/jobs',
    `/admin/jobs/${detail.items[0]?.id}`,
    '/admin/dead',
    '/admin/controls',
    '/admin/changes',
    '/admin/users',
    '/admin/vault',
    '/admin/webhooks',
    '/account/signing-key',
  ]
  for (const path of pages) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    const text = (await page.locator('main').textContent()) ?? ''
    expect(text, `${path}: a locale date`).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}/)
    expect(text, `${path}: a raw ISO time`).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/)
    expect(text, `${path}: a 12-hour clock`).not.toMatch(/\d:\d\d(:\d\d)? ?[AP]M/)
  }
})

test('the status filter names each status in words', async ({ page }) => {
  await loginAs(page, 'staff')
  await page.goto('/mints')
  const filter = page.getByLabel('Status', { exact: true })
  await expect(filter.getByRole('option', { name: 'Awaiting approval', exact: true })).toHaveCount(1)
  const options = await filter.getByRole('option').allTextContents()
  for (const o of options) expect(o).not.toContain('_')
})

test('row actions are quiet buttons: red only in the confirm dialog', async ({ page }) => {
  await loginAs(page, 'admin')
  await page.goto('/admin/users')
  const disable = page.getByRole('button', { name: /^Disable / }).first()
  await expect(disable).toBeVisible()
  await expect(disable).not.toHaveClass(/bg-red-600/)
  await disable.click()
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Disable the user' })).toHaveClass(/bg-red-600/)
  await page.getByRole('dialog').getByRole('button', { name: 'Not now' }).click()
  await page.goto('/admin/webhooks')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await page.locator('main table button.bg-red-600').count()).toBe(0)
})
