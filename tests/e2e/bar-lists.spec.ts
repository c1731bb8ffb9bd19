import type { Page } from '@playwright/test'
import { devKey } from '../../lib/keys/devKeys'
import { type TypedDataJson, toViemTypedData } from '../../lib/web/signing/toViemTypedData'
import {
  baseUrl,
  expect,
  importBarList,
  loginAs,
  type MintAccepted,
  saveScreenshot,
  settleApproval,
  type TestBar,
  test,
  testBars,
  uniqueName,
} from './fixtures'

// The admin's bar-list page (/admin/vault) against the real stack: a custodian's CSV
// list for a vault of this test's own is uploaded, its counts shown; an order takes one
// of its bars and confirms; a newer list that lacks that bar shows it missing, with the
// order holding it. A list older than the latest is refused; a last list that has the
// bar again (and a conflicting weight for another) ends the shortfall it caused, so the
// specs after this one mint against whole reserves.

const CSV_HEADER = 'serial,refiner,year,grossOz,fineness'

function csv(bars: readonly TestBar[]): string {
  return `${CSV_HEADER}\n${bars.map((b) => [b.serial, b.refiner, b.year, b.grossOz, b.fineness].join(',')).join('\n')}\n`
}

/** Uploads a CSV list through the page's form, with the vault and as-of time it needs. */
async function upload(
  page: Page,
  { name, bars, vault, asOf }: { name: string; bars: readonly TestBar[]; vault: string; asOf: Date },
) {
  // the custodian signs the list's typed data (its own tool would compute the same: docs/custodians.md)
  const query = new URLSearchParams({ vault, asOf: asOf.toISOString() })
  const typed = await page.context().request.post(`${baseUrl()}/api/vault/bar-lists/typed-data?${query}`, {
    headers: { origin: baseUrl(), 'content-type': 'text/csv' },
    data: csv(bars),
  })
  expect(typed.status(), await typed.text()).toBe(200)
  const signature = await devKey('custodian').signTypedData(toViemTypedData((await typed.json()) as TypedDataJson))
  const form = page.getByRole('form', { name: 'Import a bar list' })
  await form.getByLabel('Bar list file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv(bars)) })
  await form.getByLabel('Vault (CSV)').fill(vault)
  await form.getByLabel('As of (CSV, ISO 8601)').fill(asOf.toISOString())
  await form.getByLabel('Custodian signature').fill(signature)
  await form.getByRole('button', { name: 'Import list' }).click()
}

async function orderStatus(page: Page, orderId: string): Promise<string> {
  const res = await page.context().request.get(`${baseUrl()}/api/gold/mint/${orderId}`)
  return ((await res.json()) as { status: string }).status
}

test.describe('the admin bar-list page', () => {
  test.use({ viewport: { width: 1360, height: 900 } })

  test('import a CSV list, see its counts; a newer list that drops a bar held by an order shows it missing', async ({
    page,
  }) => {
    test.setTimeout(120_000)
    const vault = uniqueName('E2E-VLT')
    const bars = testBars(vault, 3)
    const [kept, held, dropped] = bars as [TestBar, TestBar, TestBar]
    const start = Date.now() - 10 * 60_000

    await loginAs(page, 'admin')
    await page.goto('/admin')
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Bar lists' }).click()
    await expect(page).toHaveURL(/\/admin\/vault$/)
    await expect(page.getByRole('heading', { name: 'Bar lists', level: 1 })).toBeVisible()
    // the local stack's dev list is there, labelled
    const lists = page.getByRole('table', { name: 'Imported bar lists' })
    await expect(
      lists.getByRole('row').filter({ hasText: 'LDN-1' }).filter({ hasText: 'dev data' }).first(),
    ).toBeVisible()

    // 1. the first list of the vault: three bars added
    await upload(page, { name: 'list-1.csv', bars, vault, asOf: new Date(start) })
    const result = page.getByRole('region', { name: 'Import result' })
    await expect(result).toContainText(`Imported the list of ${vault}`)
    for (const text of ['Added: 3', 'Unchanged: 0', 'Withdrawn: 0', 'Missing: 0', 'Conflicts: 0'])
      await expect(result).toContainText(text)
    const listRow = lists.getByRole('row').filter({ hasText: vault })
    await expect(listRow).toHaveCount(1)
    await expect(listRow).toContainText('admin@mintdesk.local')

    // 2. an order takes the second bar, named by serial + refiner, is approved and confirms
    const created = await page.context().request.post(`${baseUrl()}/api/gold/mint`, {
      headers: { origin: baseUrl() },
      data: {
        to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        amount: '401.084',
        vaultProof: {
          vault,
          receiptRef: `VR-${vault}`,
          documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
          bars: [{ serial: held.serial, refiner: held.refiner }],
        },
      },
    })
    expect(created.status(), await created.text()).toBe(202)
    const { orderId } = await settleApproval((await created.json()) as MintAccepted)
    await expect
      .poll(() => orderStatus(page, orderId), { timeout: 60_000, intervals: [250, 500, 1000] })
      .toBe('confirmed')

    // from here until step 5 the vault lacks gold that backs tokens: a shortfall, which
    // would make the worker refuse every later mint; step 5 ends it, the finally block too
    // if this test stops before
    let restored = false
    try {
      // 3. a newer list without it (nor the third bar): the held bar is missing, the free one withdrawn
      await upload(page, { name: 'list-2.csv', bars: [kept], vault, asOf: new Date(start + 60_000) })
      await expect(result).toContainText(`Imported the list of ${vault}`)
      for (const text of ['Added: 0', 'Unchanged: 1', 'Withdrawn: 1', 'Missing: 1', 'Conflicts: 0'])
        await expect(result).toContainText(text)
      const missingNow = result
        .getByRole('table', { name: 'Missing bars of this import' })
        .getByRole('row')
        .filter({ hasText: held.serial })
      await expect(missingNow.getByRole('link', { name: orderId.slice(0, 8) })).toHaveAttribute(
        'href',
        `/mints/${orderId}`,
      )

      // the missing bars, with the order holding each
      const missing = page.getByRole('table', { name: 'Missing bars', exact: true })
      const missingRow = missing.getByRole('row').filter({ hasText: held.serial })
      await expect(missingRow).toContainText(vault)
      await expect(missingRow).toContainText('401.084')
      await expect(missingRow.getByRole('link', { name: `Order ${orderId}`, exact: true })).toHaveAttribute(
        'href',
        `/mints/${orderId}`,
      )
      await expect(missingRow.getByRole('link', { name: `Jobs of order ${orderId}`, exact: true })).toHaveAttribute(
        'href',
        `/admin/jobs?q=${orderId}`,
      )
      await expect(missing.getByRole('row').filter({ hasText: dropped.serial })).toHaveCount(0)
      await expect(lists.getByRole('row').filter({ hasText: vault })).toHaveCount(2)
      await saveScreenshot(page, 'bar-lists.png')

      // 4. a list older than the latest is refused, and says why
      await upload(page, { name: 'old.csv', bars, vault, asOf: new Date(start + 30_000) })
      await expect(page.getByRole('alert').filter({ hasText: 'The list was not imported' })).toContainText(
        'older than the latest one',
      )

      // 5. the custodian's corrected list has the bar again (and
      //    another weight for the first bar: a conflict, not applied)
      await upload(page, {
        name: 'list-3.csv',
        bars: [{ ...kept, grossOz: '400.000' }, held],
        vault,
        asOf: new Date(start + 120_000),
      })
      for (const text of ['Missing: 0', 'Conflicts: 1']) await expect(result).toContainText(text)
      const conflict = result
        .getByRole('table', { name: 'Conflicts' })
        .getByRole('row')
        .filter({ hasText: kept.serial })
      await expect(conflict).toContainText('grossOz')
      await expect(conflict).toContainText('401.125')
      await expect(conflict).toContainText('400.000')
      await expect(missing.getByRole('row').filter({ hasText: held.serial })).toHaveCount(0)
      expect(await orderStatus(page, orderId)).toBe('confirmed')
      restored = true
    } finally {
      if (!restored)
        await importBarList(page.context().request, { vault, bars: [kept, held], asOf: new Date(start + 180_000) })
    }
  })

  test('a list of 100,000 bars shows its progress, step by step on a bar that fills, then its counts', async ({
    page,
  }) => {
    test.setTimeout(180_000)
    await loginAs(page, 'admin')
    await page.goto('/admin/vault')
    const vault = uniqueName('E2E-BIG')
    const bars = testBars(vault, 100_000)
    await upload(page, { name: 'big.csv', bars, vault, asOf: new Date(Date.now() - 60_000) })
    const form = page.getByRole('form', { name: 'Import a bar list' })
    await expect(form.getByRole('button', { name: 'Importing…' })).toBeDisabled()
    const bar = page.getByRole('progressbar', { name: /^Step [123] of 3, / })
    await expect(bar).toBeVisible()
    // the check of 100,000 bars (their root and the signature) takes seconds: seen, then the bars applied
    await expect(
      page.getByRole('progressbar', { name: "Step 2 of 3, Checking the list and the custodian's signature" }),
    ).toBeVisible()
    const before = Number(await bar.getAttribute('value'))
    await expect(
      page.getByRole('progressbar', { name: /^Step 3 of 3, Applying the bars: [\d,]+ of 100,000 bars$/ }),
    ).toBeVisible()
    expect(Number(await bar.getAttribute('value'))).toBeGreaterThan(before)
    const result = page.getByRole('region', { name: 'Import result' })
    await expect(result).toContainText(`Imported the list of ${vault}`, { timeout: 60_000 })
    await expect(result).toContainText('Added: 100000')
    await expect(bar).toHaveCount(0)
  })

  test('a file that is not a list is refused with its lines named', async ({ page }) => {
    await loginAs(page, 'admin')
    await page.goto('/admin/vault')
    const vault = uniqueName('E2E-BAD')
    const form = page.getByRole('form', { name: 'Import a bar list' })
    const bad = `${CSV_HEADER}\nOK-1,Valcambi SA,2025,401.125,999.9\nBAD-2,Valcambi SA,2025,heavy,999.9\n`
    await form
      .getByLabel('Bar list file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) })
    await form.getByLabel('Vault (CSV)').fill(vault)
    await form.getByRole('button', { name: 'Import list' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'The list was not imported' })
    await expect(alert).toContainText('line 3, gross oz:')
    await expect(
      page.getByRole('table', { name: 'Imported bar lists' }).getByRole('row').filter({ hasText: vault }),
    ).toHaveCount(0)
  })
})
