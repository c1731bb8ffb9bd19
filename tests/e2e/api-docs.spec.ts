import { expect, loginAs, test } from './fixtures'

// /docs/api: Scalar renders GET /api/openapi.json from our own origin, under the page's nonce CSP (issue 28)
test('/docs/api renders the OpenAPI document with the bundle from our own origin, and no CSP violation', async ({
  page,
  baseURL,
}) => {
  const consoleViolations: string[] = []
  page.on('console', (m) => {
    if (/content security policy|content-security-policy/i.test(m.text())) consoleViolations.push(m.text())
  })
  const otherOrigins: string[] = []
  page.on('request', (req) => {
    if (new URL(req.url()).origin !== new URL(baseURL).origin) otherOrigins.push(req.url())
  })
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] }
    w.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  await loginAs(page, 'staff')
  const res = await page.goto('/docs/api')
  expect(res?.status()).toBe(200)
  const nonce = /'nonce-([^']+)'/.exec((await res?.allHeaders())?.['content-security-policy'] ?? '')?.[1]
  expect(nonce).toBeTruthy()
  // the reference is drawn by the bundle: an operation's summary shows only if it ran and read the document
  await expect(page.getByText('Request a mint', { exact: false }).first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('mintdesk', { exact: false }).first()).toBeVisible()
  const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)
  expect(violations).toEqual([])
  expect(consoleViolations).toEqual([])
  expect(otherOrigins).toEqual([])
})

test('/docs/api without a session goes to sign-in', async ({ page }) => {
  await page.goto('/docs/api')
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdocs%2Fapi/)
})
