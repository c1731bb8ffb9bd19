import type { Browser, Page } from '@playwright/test'
import type { Address } from 'viem'
import { devKey } from '../../lib/keys/devKeys'
import {
  baseUrl,
  credentials,
  expect,
  loginAs,
  saveScreenshot,
  settleApproval,
  sidewaysOverflow,
  signedInRequest,
  test,
} from './fixtures'
import { requestMint } from './requestMint'
import { sendTokens } from './stackChain'
import { installTestWallet } from './testWallet'

// A whole redemption through the real pages (docs/decisions/055-redemptions.md): a two-bar mint (802.168 oz) to
// anvil's account 1 is confirmed; that holder sends the 802.168 tokens to the redemption address (a viem wallet
// client with its key of the public mnemonic); the deposit appears on /redemptions, where staff pick its two bars
// and a reference and submit; the approver signs the RedemptionIntent on the redemption's page with their wallet
// (an injected stand-in holding dev key 10); the page follows the burn to `burned`, its bars are `redeemed`, and
// /reserves shows the redeemed ounces and, in the lookup of the mint, each bar redeemed with its burn.

/** A page of its own browser context, signed in as the approver, a wallet holding dev key 10 in it. */
async function approverPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await installTestWallet(page, devKey('approver'))
  await loginAs(page, 'approver')
  return page
}

test.use({ viewport: { width: 1280, height: 900 } })

test('a deposit is matched to its bars by staff, signed by an approver, burned; its bars show redeemed', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000)
  // a confirmed mint of two bars (802.168 oz) to the holder
  const staffApi = await signedInRequest('staff')
  const minted = await requestMint(staffApi)
  await settleApproval({ orderId: minted.orderId, status: 'awaiting_approval' })
  let mintTx = ''
  await expect
    .poll(
      async () => {
        const order = (await (await staffApi.get(`/api/gold/mint/${minted.orderId}`)).json()) as {
          status: string
          tx: { hash: string | null } | null
        }
        mintTx = order.tx?.hash ?? ''
        return order.status
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe('confirmed')
  await staffApi.dispose()

  // staff find the redemption address on /redemptions; the holder sends the tokens there
  await loginAs(page, 'staff')
  await page.goto('/redemptions')
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Redemptions' })).toBeVisible()
  const addressCard = page.getByRole('region', { name: 'Redemption address' })
  await expect(addressCard).toContainText(/0x[0-9a-fA-F]{40}/)
  const redemptionAddress = /0x[0-9a-fA-F]{40}/.exec((await addressCard.textContent()) ?? '')?.[0] as Address
  const depositTx = await sendTokens({ to: redemptionAddress, oz: '802.168' })

  // the deposit appears, unmatched; staff choose it, pick its two bars and give a reference
  const depositRow = page.locator(`tr[data-deposit-tx="${depositTx}"]`)
  await expect(depositRow).toContainText('Unmatched', { timeout: 30_000 })
  await expect(depositRow).toContainText('802.168')
  await depositRow.getByRole('button', { name: /^Match the deposit of 802\.168 oz/ }).click()
  const form = page.getByRole('form', { name: 'Request a redemption' })
  const submit = form.getByRole('button', { name: 'Request redemption' })
  const weight = form.getByRole('status', { name: 'Fine weight against the deposit' })
  await expect(weight).toHaveText('0.000 of 802.168 oz: add bars.')
  await form.getByLabel('Search backing bars').fill(minted.vault)
  const found = form.getByRole('table', { name: 'Backing bars found' })
  await found.getByRole('button', { name: `Add bar ${minted.serials[0]} (Valcambi SA)` }).click()
  await expect(weight).toHaveText('401.084 of 802.168 oz: 401.084 oz to go.')
  await form.getByLabel('Reference').fill(`REL-${minted.vault}`)
  // one bar short of the deposit: the form refuses to send
  await expect(submit).toBeDisabled()
  await found.getByRole('button', { name: `Add bar ${minted.serials[1]} (Valcambi SA)` }).click()
  await expect(weight).toHaveText('802.168 of 802.168 oz: the bars match the deposit.')
  expect(await sidewaysOverflow(page), 'sideways scroll on /redemptions').toBe(0)
  await saveScreenshot(page, 'redemptions.png')
  await submit.click()
  await expect(page).toHaveURL(/\/redemptions\/[0-9a-f-]{36}$/)
  const redemptionId = page.url().split('/').at(-1) ?? ''
  await expect(page.getByRole('status', { name: 'Outcome' })).toContainText('Awaiting approval')
  await expect(page.getByRole('region', { name: 'Your decision' })).toHaveCount(0)

  // the approver: the redemption waits on /approvals; they sign it on its page with their wallet
  const approver = await approverPage(browser)
  await approver.goto('/approvals')
  const waiting = approver.getByRole('table', { name: 'Redemptions awaiting approval' })
  await expect(waiting).toContainText(redemptionId.slice(0, 8))
  expect(await sidewaysOverflow(approver), 'sideways scroll on /approvals').toBe(0)
  await waiting
    .getByRole('row')
    .filter({ hasText: redemptionId.slice(0, 8) })
    .getByRole('link', { name: 'Review and sign the redemption of 802.168 oz' })
    .click()
  await expect(approver).toHaveURL(new RegExp(`/redemptions/${redemptionId}$`))
  const decide = approver.getByRole('region', { name: 'Your decision' })
  const intent = decide.getByRole('region', { name: 'Intent to sign' })
  await expect(intent).toContainText('802.168 fine oz')
  await expect(intent).toContainText(redemptionAddress)
  await expect(intent).toContainText('0 of 1 signature')
  await saveScreenshot(approver, 'redemption-decision.png')
  await decide.getByRole('button', { name: 'Sign and approve' }).click()
  await approver
    .getByRole('dialog', { name: 'Sign and approve the burn of 802.168 oz?' })
    .getByRole('button', { name: 'Sign with your wallet' })
    .click()
  await expect(approver.getByRole('status').filter({ hasText: 'Approved the burn of 802.168 oz' })).toBeVisible()
  // the page follows the burn (every second while it is in flight) to burned
  await expect(approver.locator('h1 + [data-status]')).toHaveAttribute('data-status', 'burned', { timeout: 90_000 })
  await expect(approver.getByRole('status', { name: 'Outcome' })).toContainText(/Burn transaction 0x[0-9a-f]{64}/)
  const bars = approver.getByRole('table', { name: 'Bars of this redemption' })
  for (const serial of minted.serials)
    await expect(bars.getByRole('row').filter({ hasText: serial })).toContainText('redeemed')
  await expect(approver.getByRole('list', { name: 'Signatures' })).toContainText(credentials.approver.email)
  expect(await sidewaysOverflow(approver), 'sideways scroll on the redemption page').toBe(0)
  await saveScreenshot(approver, 'redemption-burned.png')
  const burnTx = /0x[0-9a-f]{64}/.exec((await approver.getByRole('status', { name: 'Outcome' }).textContent()) ?? '')
  await approver.context().close()

  // the requester's list and deposits say so too
  await page.goto('/redemptions')
  await expect(depositRow).toContainText('Redeemed')
  const listed = page
    .getByRole('table', { name: 'Redemptions' })
    .getByRole('row')
    .filter({ hasText: redemptionId.slice(0, 8) })
  await expect(listed.locator('[data-status]')).toHaveAttribute('data-status', 'burned')

  // /reserves, signed out: the redeemed ounces, the redemption address, and the mint's bars redeemed with the burn
  const visitor = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 } })
  const reserves = await visitor.newPage()
  await expect(async () => {
    await reserves.goto('/reserves')
    // the figures are cached a few seconds; this stack's only redemption is this one
    await expect(reserves.getByLabel('Redeemed: 802.168 oz', { exact: true })).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await expect(reserves.getByText(redemptionAddress)).toBeVisible()
  await reserves.goto(`/reserves?tx=${mintTx}`)
  const mint = reserves.getByRole('region', { name: new RegExp(`^Mint of 802\\.168 oz in ${mintTx}$`) })
  for (const serial of minted.serials) {
    const row = mint.getByRole('row').filter({ hasText: serial })
    await expect(row).toContainText('redeemed')
    await expect(row).toContainText(`burn ${burnTx?.[0].slice(0, 10)}`)
  }
  expect(await sidewaysOverflow(reserves), 'sideways scroll on /reserves').toBe(0)
  await visitor.close()
})
