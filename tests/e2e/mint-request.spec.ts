import type { Locator, Page } from '@playwright/test'
import { baseUrl, expect, loginAs, saveScreenshot, test, uniqueName } from './fixtures'

// Staff pick the bars of a mint from the vault's inventory (the local stack seeds 2,000
// dev bars for LDN-1): search by serial, add with the keyboard, add another, remove one;
// the totals and the amount follow. The receipt document is hashed in the browser, the
// request is accepted (202) and the order page opens; the order is listed in "My mints".
// Specs consume bars (a bar backs one order, ever), so bars are picked from what the
// search offers now, never by fixed serials.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SHA256_OF_TEST = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

/** "401.084" -> 401084n (milli-ounces as bigint: exact, never a float) */
const milli = (oz: string) => BigInt(oz.replace('.', ''))
const oz = (milliOz: bigint) => `${milliOz / 1000n}.${String(milliOz % 1000n).padStart(3, '0')}`

function results(page: Page, vault = 'LDN-1'): Locator {
  return page.getByRole('table', { name: `Available bars in ${vault}` })
}

function chosen(page: Page): Locator {
  return page.getByRole('table', { name: 'Bars of this mint' })
}

/** The first bar the search offers that is not added yet: its serial and its "Add" button. */
async function firstAddable(page: Page): Promise<{ serial: string; fineOz: string; add: Locator }> {
  const any = results(page)
    .getByRole('button', { name: /^Add bar / })
    .first()
  await expect(any).toBeVisible()
  const label = (await any.getAttribute('aria-label')) ?? ''
  const serial = /^Add bar (\S+) \(/.exec(label)?.[1] ?? ''
  expect(serial, label).not.toBe('')
  const row = results(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: serial, exact: true }) })
  const fineOz = ((await row.getByRole('cell').nth(4).textContent()) ?? '').trim()
  expect(fineOz).toMatch(/^\d+\.\d{3}$/)
  // this bar's own button: the results may change under the test (a search settling)
  return { serial, fineOz, add: results(page).getByRole('button', { name: new RegExp(`^Add bar ${serial} \\(`) }) }
}

async function fillReceipt(page: Page) {
  await page.getByLabel('Vault receipt reference').fill(uniqueName('VR-E2E'))
  await page
    .getByLabel('Receipt document', { exact: true })
    .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('test') })
  await expect(page.getByLabel('Receipt document SHA-256')).toHaveValue(SHA256_OF_TEST)
}

test.describe('the mint request form', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('staff search the vault, pick two bars (one by keyboard), remove one, and request the mint', async ({
    page,
  }) => {
    await loginAs(page, 'staff')
    await page.goto('/mints/new')
    await expect(page.getByRole('heading', { name: 'Request a mint' })).toBeVisible()
    await expect(page.getByLabel('Vault', { exact: true })).toHaveValue('LDN-1')
    await expect(page.getByLabel('Amount (fine oz)')).toHaveJSProperty('readOnly', true)
    await expect(page.getByRole('status', { name: 'Bar count' })).toHaveText('0')

    // the allowlist is offered, by label: the address typed is named as an allowed recipient
    const recipient = page.getByLabel('Recipient address')
    const listId = await recipient.getAttribute('list')
    await expect(page.locator(`datalist[id="${listId}"] option[value="${RECIPIENT}"]`)).toHaveCount(1)
    await recipient.fill(RECIPIENT)
    await expect(page.getByText(/^Allowed recipient: /)).toBeVisible()
    await fillReceipt(page)

    // search by (part of) a serial the vault offers now: the results narrow to it
    const first = await firstAddable(page)
    const search = page.getByRole('searchbox', { name: 'Search bars' })
    await search.fill(first.serial.slice(0, -1).toLowerCase())
    await expect(page.getByText(/available bars? in LDN-1 matching/)).toBeVisible()
    await expect(results(page).getByRole('rowheader', { name: first.serial, exact: true })).toBeVisible()
    // Enter in the search box does not submit the form
    await search.press('Enter')
    await expect(page).toHaveURL(/\/mints\/new$/)

    // add it with the keyboard
    const add = results(page).getByRole('button', { name: new RegExp(`^Add bar ${first.serial} `) })
    await add.focus()
    await page.keyboard.press('Enter')
    await expect(chosen(page).getByRole('rowheader', { name: first.serial })).toBeVisible()
    await expect(
      results(page).getByRole('button', { name: new RegExp(`^Bar ${first.serial} .*: added$`) }),
    ).toBeDisabled()
    await expect(page.getByRole('status', { name: 'Bar count' })).toHaveText('1')

    // a second bar from the unfiltered list, and a third that is removed again
    await search.fill('')
    const second = await firstAddable(page)
    await second.add.click()
    const third = await firstAddable(page)
    await third.add.click()
    await expect(page.getByRole('status', { name: 'Bar count' })).toHaveText('3')
    await chosen(page)
      .getByRole('button', { name: new RegExp(`^Remove bar ${third.serial} `) })
      .click()
    await expect(chosen(page).getByRole('rowheader', { name: third.serial })).toHaveCount(0)
    await expect(page.getByRole('status', { name: 'Bar count' })).toHaveText('2')

    // the totals and the amount are the two bars' fine weights
    const total = oz(milli(first.fineOz) + milli(second.fineOz))
    await expect(page.getByRole('status', { name: 'Total fine weight' })).toHaveText(total)
    await expect(page.getByLabel('Amount (fine oz)')).toHaveValue(total)
    await saveScreenshot(page, 'mint-form.png')

    const started = Date.now()
    await page.getByRole('button', { name: 'Request mint' }).click()
    await expect(page).toHaveURL(/\/mints\/[0-9a-f-]{36}$/)
    expect(Date.now() - started).toBeLessThan(10_000)
    const orderId = new URL(page.url()).pathname.split('/').pop() ?? ''

    await expect(page.getByRole('heading', { name: 'Mint order' })).toBeVisible()
    await expect(page.getByText(orderId)).toBeVisible()
    await expect(page.getByText(total).first()).toBeVisible()
    await expect(page.getByRole('cell', { name: first.serial })).toBeVisible()
    await expect(page.getByRole('cell', { name: second.serial })).toBeVisible()
    await expect(page.getByRole('cell', { name: third.serial })).toHaveCount(0)
    // APPROVAL_THRESHOLD_OZ 0 (the stack's default): it waits for a second person (tests/e2e/approvals.spec.ts)
    await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Approval requested')

    await page.goto('/mints')
    await expect(page.getByRole('heading', { name: 'My mints' })).toBeVisible()
    const link = page.getByRole('link', { name: `Order ${orderId.slice(0, 8)}: details` })
    await expect(link).toBeVisible()
    const row = page.getByRole('row').filter({ has: link })
    await expect(row).toContainText(total)
    await expect(row).toContainText(/Awaiting approval|Pending|Submitted|Confirmed/)

    // the bars are taken: the search no longer offers them
    await page.goto('/mints/new')
    await page.getByRole('searchbox', { name: 'Search bars' }).fill(first.serial)
    await expect(page.getByText(`No available bar in LDN-1 matches “${first.serial}”.`)).toBeVisible()
  })

  test('a bar taken by another order meanwhile: the server says so next to that bar', async ({ page }) => {
    await loginAs(page, 'staff')
    await page.goto('/mints/new')
    await page.getByLabel('Recipient address').fill(RECIPIENT)
    await fillReceipt(page)
    const bar = await firstAddable(page)
    await bar.add.click()
    const row = chosen(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: bar.serial }) })
    await expect(row).toBeVisible()

    // someone else's request takes it first (through the API, named by serial + refiner)
    const refiner = ((await row.getByRole('cell').nth(1).textContent()) ?? '').trim()
    const taken = await page.context().request.post(`${baseUrl()}/api/gold/mint`, {
      headers: { origin: baseUrl() },
      data: {
        to: RECIPIENT,
        amount: bar.fineOz,
        vaultProof: {
          vault: 'LDN-1',
          receiptRef: uniqueName('VR-E2E'),
          documentSha256: SHA256_OF_TEST,
          bars: [{ serial: bar.serial, refiner }],
        },
      },
    })
    expect(taken.status(), await taken.text()).toBe(202)

    await page.getByRole('button', { name: 'Request mint' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'already backs another order' })).toBeVisible()
    await expect(row).toContainText(`bar ${bar.serial} (${refiner}) is already used`)
    await expect(page).toHaveURL(/\/mints\/new$/)

    // removing it clears its error; the form is ready for another bar
    await row.getByRole('button', { name: /^Remove bar / }).click()
    await expect(page.getByRole('status', { name: 'Bar count' })).toHaveText('0')
    await expect(chosen(page)).not.toContainText('already used')
  })

  test('the form shows the rules inline and sends nothing until they hold', async ({ page }) => {
    await loginAs(page, 'staff')
    await page.goto('/mints/new')
    await page.getByLabel('Recipient address').fill('0x0000000000000000000000000000000000000000')
    await page.getByRole('button', { name: 'Request mint' }).click()
    // filtered: Next's route announcer is an alert region too
    await expect(page.getByRole('alert').filter({ hasText: 'Some fields need attention' })).toBeVisible()
    await expect(page.getByLabel('Recipient address')).toHaveAttribute('aria-invalid', 'true')
    await expect(chosen(page)).toContainText('must list at least one bar')
    await expect(page).toHaveURL(/\/mints\/new$/)
  })
})
