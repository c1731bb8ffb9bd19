import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test'
import {
  allowRecipient,
  baseUrl,
  credentials,
  expect,
  loginAs,
  type MintAccepted,
  saveScreenshot,
  signedInRequest,
  stockTestVault,
  test,
} from './fixtures'

// Four eyes in the browser: with the stack's default APPROVAL_THRESHOLD_OZ
// (0: every order), a staff member's mint waits on the approvals page until a second
// person, approver@mintdesk.local in a browser context of their own, approves it (a
// confirmation first) or rejects it (a reason first). The requester follows the
// decision on the order page; an approved order is then signed and confirmed; a
// rejected one frees its bars. Nobody decides on their own request.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SHA256_OF_TEST = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

test.describe.configure({ mode: 'serial' })

type Requested = { orderId: string; vault: string; serials: string[] }

/**
 * A two-bar mint (802.168 oz) requested through the API by `requester` (the form has its
 * own spec), from a vault of its own that an admin imports first: 202 awaiting_approval.
 */
async function requestMint(requester: APIRequestContext): Promise<Requested> {
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

/** A page of its own browser context (its own cookies), signed in as the approver. */
async function approverPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await loginAs(page, 'approver')
  return page
}

function card(page: Page, orderId: string): Locator {
  return page.getByRole('listitem').filter({ has: page.getByRole('link', { name: orderId }) })
}

test.describe('approvals', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('a staff request waits; the approver approves it on /approvals (confirm step); the requester sees the decision and the mint confirmed', async ({
    page,
    browser,
  }) => {
    await loginAs(page, 'staff')
    const order = await requestMint(page.context().request)

    // the requester: awaiting approval, nothing signed
    await page.goto(`/mints/${order.orderId}`)
    await expect(page.getByRole('status', { name: 'Decision' })).toContainText('Awaiting approval')
    await expect(page.getByText('Nothing is signed until a second person approves it.')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Approval requested')
    // staff have no approvals page
    await page.goto('/approvals')
    await expect(page).toHaveURL(/\/forbidden$/)

    // the approver, in a second browser context: lands on /approvals, sees what, for whom, which bars, who asked
    const approver = await approverPage(browser)
    await approver.goto('/')
    await expect(approver).toHaveURL(/\/approvals$/)
    await expect(approver.getByRole('heading', { name: 'Approvals' })).toBeVisible()
    const item = card(approver, order.orderId)
    await expect(item).toContainText('802.168')
    await expect(item).toContainText(RECIPIENT)
    for (const serial of order.serials) await expect(item.getByRole('cell', { name: serial })).toBeVisible()
    await expect(item).toContainText(credentials.staff.email)
    await saveScreenshot(approver, 'approvals.png')

    // approve: a confirmation first; dismissing it changes nothing
    await item.getByRole('button', { name: /^Approve the mint of 802\.168 oz/ }).click()
    const dialog = approver.getByRole('dialog', { name: 'Approve the mint of 802.168 oz?' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Not now' }).click()
    await expect(dialog).toBeHidden()
    await expect(item).toBeVisible()
    await item.getByRole('button', { name: /^Approve the mint of 802\.168 oz/ }).click()
    await dialog.getByRole('button', { name: 'Approve mint' }).click()
    await expect(approver.getByRole('status').filter({ hasText: 'Approved the mint of 802.168 oz' })).toBeVisible()
    await expect(card(approver, order.orderId)).toHaveCount(0)
    await approver.context().close()

    // the requester sees who approved it, then the mint confirmed
    await page.goto(`/mints/${order.orderId}`)
    await expect(page.getByRole('status', { name: 'Decision' })).toContainText(
      `Approved by ${credentials.approver.email}`,
    )
    const timeline = page.getByRole('list', { name: 'Timeline' })
    await expect(timeline).toContainText('Approved')
    await expect(timeline).toContainText('Enqueued')
    await expect(timeline).toContainText('Confirmed', { timeout: 60_000 })
    await expect(page.locator('[data-status="confirmed"]')).toBeVisible()
  })

  test('the approver rejects with a reason (asked for first); the requester reads it and the bars are free again', async ({
    page,
    browser,
  }) => {
    await loginAs(page, 'staff')
    const order = await requestMint(page.context().request)

    const approver = await approverPage(browser)
    await approver.goto('/approvals')
    const item = card(approver, order.orderId)
    await item.getByRole('button', { name: /^Reject the mint of 802\.168 oz/ }).click()
    const dialog = approver.getByRole('dialog', { name: 'Reject the mint of 802.168 oz?' })
    // no reason: refused in the dialog, nothing sent
    await dialog.getByRole('button', { name: 'Reject mint' }).click()
    await expect(dialog.getByRole('alert')).toContainText('Say why the order is rejected')
    await dialog.getByLabel('Reason').fill('The receipt is for another vault.')
    await dialog.getByRole('button', { name: 'Reject mint' }).click()
    await expect(approver.getByRole('status').filter({ hasText: 'Rejected the mint of 802.168 oz' })).toBeVisible()
    await expect(card(approver, order.orderId)).toHaveCount(0)
    await approver.context().close()

    await page.goto(`/mints/${order.orderId}`)
    const decision = page.getByRole('status', { name: 'Decision' })
    await expect(decision).toContainText(`Rejected by ${credentials.approver.email}`)
    await expect(decision).toContainText('The receipt is for another vault.')
    await expect(page.locator('[data-status="rejected"]')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Rejected')

    // its bars can back another order
    const bars = await page.context().request.get(`${baseUrl()}/api/vault/bars?vault=${order.vault}&status=available`)
    expect(bars.status()).toBe(200)
    const listed = ((await bars.json()) as { items: { serial: string }[] }).items.map((b) => b.serial)
    for (const serial of order.serials) expect(listed).toContain(serial)
  })

  test("an admin's own request: listed on their approvals page but not theirs to decide (403 self_approval through the API)", async ({
    page,
  }) => {
    await loginAs(page, 'admin')
    const order = await requestMint(page.context().request)
    await page.goto('/approvals')
    const item = card(page, order.orderId)
    await expect(item).toContainText('You requested this: a second person must approve or reject it.')
    await expect(item.getByRole('button', { name: /^Approve/ })).toHaveCount(0)
    await expect(item.getByRole('button', { name: /^Reject/ })).toHaveCount(0)
    const refused = await page
      .context()
      .request.post(`${baseUrl()}/api/gold/mint/${order.orderId}/approve`, { headers: { origin: baseUrl() } })
    expect(refused.status()).toBe(403)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('self_approval')

    // leave nothing waiting: the approver rejects it
    const approver = await signedInRequest('approver')
    const rejected = await approver.post(`/api/gold/mint/${order.orderId}/reject`, {
      headers: { origin: baseUrl() },
      data: { reason: 'e2e clean-up' },
    })
    expect(rejected.status(), await rejected.text()).toBe(200)
    await approver.dispose()
  })
})
