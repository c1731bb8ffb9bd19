import { expect, loginAs, test } from './fixtures'

// Staff fill the request form with two bars (fine weights computed as they type), the
// receipt document is hashed in the browser, the request is accepted (202) and the
// order page opens; the order is listed in "My mints". Serials are unique per run: a
// bar can back one order only, ever.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SHA256_OF_TEST = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

test('staff request a mint with two bars and watch the order appear', async ({ page }) => {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.toUpperCase()
  await loginAs(page, 'staff')
  await page.goto('/mints/new')
  await expect(page.getByRole('heading', { name: 'Request a mint' })).toBeVisible()

  await page.getByLabel('Recipient address').fill(RECIPIENT)
  await page.getByLabel('Vault', { exact: true }).fill('LDN-1')
  await page.getByLabel('Vault receipt reference').fill(`VR-E2E-${run}`)
  await page
    .getByLabel('Receipt document', { exact: true })
    .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('test') })
  await expect(page.getByLabel('Receipt document SHA-256')).toHaveValue(SHA256_OF_TEST)

  await page.getByLabel('Bar 1 serial').fill(`E2E-${run}-1`)
  await page.getByLabel('Bar 1 refiner').fill('Valcambi SA')
  await page.getByLabel('Bar 1 year').fill('2025')
  await page.getByLabel('Bar 1 gross oz').fill('401.125')
  await page.getByLabel('Bar 1 fineness').fill('999.9')
  await expect(page.getByRole('status', { name: 'Bar 1 fine weight' })).toHaveText('401.084')

  await page.getByRole('button', { name: '+ Add bar' }).click()
  await expect(page.getByLabel('Bar 2 serial')).toBeFocused()
  await page.getByLabel('Bar 2 serial').fill(`E2E-${run}-2`)
  // refiner, year and fineness are carried over from the row above
  await expect(page.getByLabel('Bar 2 refiner')).toHaveValue('Valcambi SA')
  await page.getByLabel('Bar 2 gross oz').fill('400')
  await expect(page.getByRole('status', { name: 'Bar 2 fine weight' })).toHaveText('399.960')
  await expect(page.getByRole('status', { name: 'Total fine weight' })).toHaveText('801.044')

  await page.getByRole('button', { name: 'Use total' }).click()
  await expect(page.getByLabel('Amount (fine oz)')).toHaveValue('801.044')
  await expect(page.getByText('Matches the total fine weight of the bars')).toBeVisible()

  const started = Date.now()
  await page.getByRole('button', { name: 'Request mint' }).click()
  await expect(page).toHaveURL(/\/mints\/[0-9a-f-]{36}$/)
  expect(Date.now() - started).toBeLessThan(10_000)
  const orderId = new URL(page.url()).pathname.split('/').pop() ?? ''

  await expect(page.getByRole('heading', { name: 'Mint order' })).toBeVisible()
  await expect(page.getByText(orderId)).toBeVisible()
  await expect(page.getByText('801.044').first()).toBeVisible()
  await expect(page.getByRole('cell', { name: `E2E-${run}-1` })).toBeVisible()
  await expect(page.getByRole('cell', { name: `E2E-${run}-2` })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Enqueued')

  await page.goto('/mints')
  await expect(page.getByRole('heading', { name: 'My mints' })).toBeVisible()
  const link = page.getByRole('link', { name: `Order ${orderId.slice(0, 8)}: details` })
  await expect(link).toBeVisible()
  const row = page.getByRole('row').filter({ has: link })
  await expect(row).toContainText('801.044')
  await expect(row).toContainText(/Pending|Submitted|Confirmed/)
})

test('the form shows the rules inline and sends nothing until they hold', async ({ page }) => {
  await loginAs(page, 'staff')
  await page.goto('/mints/new')
  await page.getByLabel('Recipient address').fill('0x0000000000000000000000000000000000000000')
  await page.getByLabel('Bar 1 gross oz').fill('401.125')
  await page.getByLabel('Bar 1 fineness').fill('899')
  await page.getByRole('button', { name: 'Request mint' }).click()
  // filtered: Next's route announcer is an alert region too
  await expect(page.getByRole('alert').filter({ hasText: 'Some fields need attention' })).toBeVisible()
  await expect(page.getByLabel('Recipient address')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Bar 1 fineness')).toHaveAttribute('aria-invalid', 'true')
  await expect(page).toHaveURL(/\/mints\/new$/)
})
