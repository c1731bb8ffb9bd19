import type { Browser, Locator, Page } from '@playwright/test'
import { devKey } from '../../lib/keys/devKeys'
import { mintApprovalSchema } from '../../lib/web/signing/apiTypes'
import { toViemTypedData } from '../../lib/web/signing/toViemTypedData'
import { headerOf } from '../helpers/readEml'
import { baseUrl, credentials, expect, loginAs, saveScreenshot, signedInRequest, test } from './fixtures'
import { waitForMail } from './mailbox'
import { RECIPIENT, requestMint } from './requestMint'
import { installTestWallet } from './testWallet'

// Four eyes in the browser: a staff member's mint waits on the approvals page until a
// second person, approver@mintdesk.local in a browser context of their own, signs its
// intent with their own key (an injected wallet holding dev key 10; a confirmation
// first) or rejects it (a reason first). The requester follows the decision on the order
// page; an approved order is then signed by the worker and confirmed; a rejected one
// frees its bars. Nobody decides on their own request.

test.describe.configure({ mode: 'serial' })

/** A page of its own browser context (its own cookies), signed in as the approver, a wallet with dev key 10 in it. */
async function approverPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await installTestWallet(page, devKey('approver'))
  await loginAs(page, 'approver')
  return page
}

function card(page: Page, orderId: string): Locator {
  return page.getByRole('listitem').filter({ has: page.getByRole('link', { name: orderId }) })
}

test.describe('approvals', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('a staff request waits; the approver signs it with their wallet on /approvals (confirm step); the requester sees the decision and the mint confirmed', async ({
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
    // the intent being signed: the same recipient and amount, the contract and chain, nobody signed yet
    const intent = item.getByRole('region', { name: 'Intent to sign' })
    await expect(intent).toContainText(RECIPIENT)
    await expect(intent).toContainText('802.168 fine oz')
    await expect(intent).toContainText('0 of 1 signature')
    await saveScreenshot(approver, 'approvals.png')

    // sign and approve: a confirmation first; dismissing it changes nothing
    const signButton = item.getByRole('button', { name: /^Sign and approve the mint of 802\.168 oz/ })
    await signButton.click()
    const dialog = approver.getByRole('dialog', { name: 'Sign and approve the mint of 802.168 oz?' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Not now' }).click()
    await expect(dialog).toBeHidden()
    await expect(item).toBeVisible()
    await signButton.click()
    await dialog.getByRole('button', { name: 'Sign with your wallet' }).click()
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
    // the outcome first: rejected, by whom, why
    const outcome = page.getByRole('status', { name: 'Outcome' })
    await expect(outcome).toContainText('Rejected: nothing will be minted')
    await expect(outcome).toContainText(`Rejected by ${credentials.approver.email}`)
    await expect(outcome).toContainText('The receipt is for another vault.')
    // and the requester is emailed, the order named in the subject
    const mail = await waitForMail({ to: credentials.staff.email, orderId: order.orderId, subject: 'was rejected' })
    expect(headerOf(mail, 'Subject')).toBe(
      `[mintdesk] Your mint of 802.168 oz to dev customer 1 was rejected (order ${order.orderId.slice(0, 8)})`,
    )
    expect(mail).toContain('Reason given: The receipt is for another vault.')
    await expect(page.locator('[data-status="rejected"]')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Rejected')

    // its bars can back another order
    const bars = await page.context().request.get(`${baseUrl()}/api/vault/bars?vault=${order.vault}&status=available`)
    expect(bars.status()).toBe(200)
    const listed = ((await bars.json()) as { items: { serial: string }[] }).items.map((b) => b.serial)
    for (const serial of order.serials) expect(listed).toContain(serial)
  })

  test('the approval email names the order; its link leads to the order page, where the approver signs it', async ({
    browser,
  }) => {
    const staff = await signedInRequest('staff')
    const order = await requestMint(staff)
    await staff.dispose()

    // the .eml the SMTP sink kept for the approver: the order's short id and the recipient's label in the subject
    const mail = await waitForMail({ to: credentials.approver.email, orderId: order.orderId })
    expect(headerOf(mail, 'Subject')).toBe(
      `[mintdesk] A mint of 802.168 oz to dev customer 1 awaits your approval (order ${order.orderId.slice(0, 8)})`,
    )
    const link = /Approve or reject it: (\S+)/.exec(mail)?.[1]
    expect(link).toBe(`${baseUrl()}/mints/${order.orderId}`)

    // the link: the order page offers the approvals page's signing
    const approver = await approverPage(browser)
    await approver.goto(link ?? '')
    const decide = approver.getByRole('region', { name: 'Your decision' })
    await expect(decide.getByRole('region', { name: 'Intent to sign' })).toContainText('0 of 1 signature')
    await saveScreenshot(approver, 'order-decision.png')
    await decide.getByRole('button', { name: /^Sign and approve the mint of 802\.168 oz/ }).click()
    await approver
      .getByRole('dialog', { name: 'Sign and approve the mint of 802.168 oz?' })
      .getByRole('button', { name: 'Sign with your wallet' })
      .click()
    await expect(approver.getByRole('status').filter({ hasText: 'Approved the mint of 802.168 oz' })).toBeVisible()
    await expect(approver.getByRole('status', { name: 'Decision' })).toContainText(
      `Approved by ${credentials.approver.email}`,
    )
    await expect(decide).toHaveCount(0)
    await approver.context().close()
  })

  test("an admin's own request: listed on their approvals page but not theirs to decide (403 self_approval through the API)", async ({
    page,
  }) => {
    await loginAs(page, 'admin')
    const order = await requestMint(page.context().request)
    await page.goto('/approvals')
    const item = card(page, order.orderId)
    await expect(item).toContainText('You requested this: a second person must approve or reject it.')
    await expect(item.getByRole('button', { name: /^Sign/ })).toHaveCount(0)
    await expect(item.getByRole('button', { name: /^Reject/ })).toHaveCount(0)
    // signed with admin@'s own dev key (13): refused all the same, they requested it
    const approvalRes = await page.context().request.get(`${baseUrl()}/api/gold/mint/${order.orderId}/approval`)
    expect(approvalRes.status(), await approvalRes.text()).toBe(200)
    const { typedData } = mintApprovalSchema.parse(await approvalRes.json())
    const signature = await devKey('admin').signTypedData(toViemTypedData(typedData))
    const refused = await page.context().request.post(`${baseUrl()}/api/gold/mint/${order.orderId}/approve`, {
      headers: { origin: baseUrl() },
      data: { signature },
    })
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
