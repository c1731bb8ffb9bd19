import type { Page } from '@playwright/test'
import {
  baseUrl,
  credentials,
  expect,
  importBarList,
  loginAs,
  type MintAccepted,
  settleApproval,
  signedInRequest,
  type TestBar,
  test,
} from './fixtures'

// XSS: every free-text field of a mint request (vault, receipt reference, bar
// serial, bar refiner) carries a script payload, accepted by the API (they are printable
// text of at most 64 characters), and so does the custodian's bar list that lists those
// bars (an admin imports it first). Every page that shows the order, the bars or the
// list must show the payload as TEXT: no script runs (a payload that ran would set window.__xss, open a dialog or
// load an image), and the literal text is visible. The login page's own parameters
// (callbackUrl, error) are tried as well.

type Marker = { n: number; text: string }

/** Payloads that set window.__xss to their number when they run. Each stays <= 64 characters with its suffix. */
function payloads(
  run: string,
): Record<'vault' | 'receiptRef' | 'serial1' | 'refiner1' | 'serial2' | 'refiner2' | 'serial3', Marker> {
  const m = (n: number, text: string): Marker => ({ n, text: `${text} ${run}` })
  return {
    vault: m(1, '<script>window.__xss=1</script>'),
    receiptRef: m(2, '<img src=x onerror="window.__xss=2">'),
    serial1: m(3, '"><svg onload=window.__xss=3>'),
    refiner1: m(4, "<iframe srcdoc='<script>parent.__xss=4</script>'>"),
    serial2: m(5, 'javascript:window.__xss=5//'),
    refiner2: m(6, "'-alert(6)-'<b onmouseover=window.__xss=6>"),
    serial3: m(7, '{{constructor.constructor("window.__xss=7")()}}'),
  }
}

/** Records anything a payload could do if it ran: dialogs, the marker, requests to the bogus image. */
async function watch(page: Page): Promise<{ dialogs: string[]; requests: string[] }> {
  const seen = { dialogs: [] as string[], requests: [] as string[] }
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message())
    void d.dismiss()
  })
  page.on('request', (r) => {
    if (/\/x$/.test(new URL(r.url()).pathname)) seen.requests.push(r.url())
  })
  await page.addInitScript(() => {
    ;(window as unknown as { __xss?: number }).__xss = undefined
  })
  return seen
}

async function expectNoScriptRan(page: Page, seen: { dialogs: string[]; requests: string[] }, where: string) {
  // hover everything once: an onmouseover payload must not run either
  for (const el of await page.getByText(/__xss/).all()) await el.hover({ timeout: 1_000 }).catch(() => {})
  const marker = await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)
  expect(marker, `${where}: a payload ran (window.__xss = ${marker})`).toBeUndefined()
  expect(seen.dialogs, `${where}: dialogs`).toEqual([])
  expect(seen.requests, `${where}: the payload's image was requested`).toEqual([])
  // a payload that became a <script> element holds only the payload's code (Next's own inline
  // scripts carry the page data, payload text included, as escaped JSON strings: harmless)
  expect(
    await page
      .locator('script:not([src])')
      .evaluateAll((els) => els.filter((e) => /^\s*(window|parent)\.__xss/.test(e.textContent ?? '')).length),
    `${where}: a payload became a script element`,
  ).toBe(0)
  expect(
    await page.locator('[onerror], [onload], [onmouseover], iframe[srcdoc], svg[onload]').count(),
    `${where}: a payload became markup`,
  ).toBe(0)
}

test('script payloads in every text field are shown as text on every page that shows the order', async ({
  page,
  browser,
}) => {
  const run = Date.now().toString(36).toUpperCase()
  const p = payloads(run)
  // one more bar, left free: the request form's search results show it
  const spare = { n: 8, text: `<img src=x onerror="window.__xss=8"> ${run}` }
  const listed = (serial: string, refiner: string, grossOz: string): TestBar => ({
    serial,
    refiner,
    year: 2025,
    grossOz,
    fineness: '999.9',
  })

  // the bars are on the vault's bar list first (the vault's name is a payload too)
  const adminApi = await signedInRequest('admin')
  await importBarList(adminApi, {
    vault: p.vault.text,
    bars: [
      listed(p.serial1.text, p.refiner1.text, '401.125'),
      listed(p.serial2.text, p.refiner2.text, '400.000'),
      listed(p.serial3.text, 'Valcambi SA', '401.850'),
      listed(spare.text, 'Valcambi SA', '400.100'),
    ],
  })
  await adminApi.dispose()

  await loginAs(page, 'staff')
  const res = await page.context().request.post(`${baseUrl()}/api/gold/mint`, {
    headers: { origin: baseUrl() },
    data: {
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      amount: '1202.853',
      vaultProof: {
        vault: p.vault.text,
        receiptRef: p.receiptRef.text,
        documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        bars: [
          { serial: p.serial1.text, refiner: p.refiner1.text },
          { serial: p.serial2.text, refiner: p.refiner2.text },
          { serial: p.serial3.text, refiner: 'Valcambi SA' },
        ],
      },
    },
  })
  expect(res.status(), await res.text()).toBe(202)
  const { orderId, jobId } = await settleApproval((await res.json()) as MintAccepted)

  // staff: the order page shows every field
  const seen = await watch(page)
  await page.goto(`/mints/${orderId}`)
  await expect(page.getByRole('heading', { name: 'Mint order' })).toBeVisible()
  for (const [field, m] of Object.entries(p))
    await expect(page.getByText(m.text, { exact: true }).first(), `order page: ${field} shown literally`).toBeVisible()
  await expectNoScriptRan(page, seen, 'staff order page')

  // staff: the request form's search shows the vault's free bar
  await page.goto('/mints/new')
  await page.getByLabel('Vault', { exact: true }).fill(p.vault.text)
  await expect(
    page.getByRole('table', { name: `Available bars in ${p.vault.text}` }).getByText(spare.text, { exact: true }),
  ).toBeVisible()
  await expectNoScriptRan(page, seen, 'request form search results')

  // staff: My mints (lists the order)
  await page.goto('/mints')
  await expect(page.getByRole('heading', { name: 'My mints' })).toBeVisible()
  await expect(page.getByRole('link', { name: new RegExp(`Order ${orderId.slice(0, 8)}`) })).toBeVisible()
  await expectNoScriptRan(page, seen, 'My mints')

  // admin: the job's page shows the order and its vault proof; the lists and dead letters around it
  const adminContext = await browser.newContext({ baseURL: baseUrl() })
  const admin = await adminContext.newPage()
  await loginAs(admin, 'admin')
  const adminSeen = await watch(admin)
  await admin.goto(`/admin/jobs/${jobId}`)
  for (const [field, m] of Object.entries(p))
    await expect(
      admin.getByText(m.text, { exact: true }).first(),
      `admin job page: ${field} shown literally`,
    ).toBeVisible()
  await expectNoScriptRan(admin, adminSeen, 'admin job page')
  await admin.goto('/admin/vault')
  await expect(
    admin.getByRole('table', { name: 'Imported bar lists' }).getByText(p.vault.text, { exact: true }),
  ).toBeVisible()
  await expectNoScriptRan(admin, adminSeen, 'admin bar lists')
  for (const url of [
    '/admin/jobs',
    `/admin/jobs?q=${orderId}`,
    '/admin/dead',
    '/admin',
    `/mints/${orderId}`,
    '/mints',
  ]) {
    await admin.goto(url)
    await admin.waitForLoadState('networkidle')
    await expectNoScriptRan(admin, adminSeen, `admin ${url}`)
  }
  await adminContext.close()
})

test('the login page: a script in callbackUrl or error is neither run nor followed', async ({ page }) => {
  const seen = await watch(page)
  const attempts = [
    '/login?callbackUrl=javascript:window.__xss%3D11',
    '/login?callbackUrl=%22%3E%3Cscript%3Ewindow.__xss%3D12%3C/script%3E',
    '/login?callbackUrl=//evil.example/steal',
    '/login?error=%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D13%3E&code=%3Cscript%3Ewindow.__xss%3D14%3C/script%3E',
  ]
  for (const url of attempts) {
    await page.goto(url)
    await expect(page.getByLabel('Email')).toBeVisible()
    await expectNoScriptRan(page, seen, url)
    expect(await page.content(), `${url}: the payload is not in the markup as markup`).not.toMatch(
      /<script>window\.__xss|onerror=window/,
    )
  }
  // signing in from a javascript: callbackUrl lands on our own page
  await page.goto(attempts[0])
  await page.getByLabel('Email').fill(credentials.staff.email)
  await page.getByLabel('Password').fill(credentials.staff.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(new RegExp(`^${baseUrl()}/mints`))
  await expectNoScriptRan(page, seen, 'after sign-in')
})
