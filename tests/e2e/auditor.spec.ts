import { expect, loginAs, signedInRequest, test } from './fixtures'

// The auditor in the browser: lands on the console, reads every section an admin reads and is
// offered no action there; the API refuses the changes it is not offered.

/** each console section and a heading it shows once it has read its data */
const sections = [
  { path: '/admin', heading: /./ },
  { path: '/admin/jobs', heading: 'Jobs' },
  { path: '/admin/dead', heading: 'Dead letters' },
  { path: '/admin/vault', heading: 'Bar lists' },
  { path: '/admin/controls', heading: 'Recipient allowlist' },
  { path: '/admin/changes', heading: /./ },
  { path: '/admin/users', heading: /./ },
  { path: '/admin/webhooks', heading: 'Webhooks' },
]

test('an auditor reads every console section and is offered no action', async ({ page }) => {
  await loginAs(page, 'auditor')
  await page.goto('/')
  await expect(page).toHaveURL(/\/admin$/)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'New mint' })).toHaveCount(0)

  for (const s of sections) {
    await page.goto(s.path)
    await expect(page.getByRole('heading', { name: s.heading }).first()).toBeVisible()
    await expect(
      page.getByText('You are an auditor: you read everything the admins read, and change nothing.'),
    ).toBeVisible()
    for (const action of [/^Retry/, /^Cancel/, 'Add recipient', 'Review limits', 'Confirm', 'Reject', /^Remove/])
      await expect(page.getByRole('button', { name: action })).toHaveCount(0)
  }
  await page.goto('/admin/vault')
  await expect(page.getByRole('button', { name: /import/i })).toHaveCount(0)

  await page.goto('/mints')
  await expect(page.getByRole('heading', { level: 1, name: 'Mints' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'New mint' })).toHaveCount(0)
})

test('the API answers an auditor its reads and refuses its changes', async () => {
  const auditor = await signedInRequest('auditor')
  try {
    for (const path of ['/api/admin/jobs', '/api/admin/metrics', '/api/admin/recipients', '/api/gold/mint'])
      expect((await auditor.get(path)).status(), path).toBe(200)
    const origin = { origin: new URL((await auditor.get('/api/health')).url()).origin }
    const add = await auditor.post('/api/admin/recipients', {
      headers: origin,
      data: { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', label: 'auditor tries' },
    })
    expect(add.status()).toBe(403)
    expect(((await add.json()) as { error: { code: string } }).error.code).toBe('forbidden')
  } finally {
    await auditor.dispose()
  }
})
