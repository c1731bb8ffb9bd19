import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { baseUrl, expect, loginAs, signedInRequest, test } from './fixtures'

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
  { path: '/admin/audit', heading: 'Audit' },
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

test('an auditor filters the audit log, downloads it as JSON Lines and checks its chain offline with audit-verify', async ({
  page,
}) => {
  // audited actions of this test's own: an admin asks for two recipients (a second admin need not confirm them here)
  const admin = await signedInRequest('admin')
  const [address, other] = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]
  for (const a of [address, other]) {
    const asked = await admin.post('/api/admin/recipients', {
      headers: { origin: baseUrl() },
      data: { address: a, label: 'audit e2e' },
    })
    expect(asked.status(), await asked.text()).toBe(202)
  }
  await admin.dispose()

  await loginAs(page, 'auditor')
  await page.goto('/admin')
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible()
  const form = page.getByRole('form', { name: 'Filter the audit log' })
  await form.getByLabel('Actor').fill('admin@')
  await form.getByLabel('Action').fill('change.')
  await form.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/actor=admin%40&action=change\./)
  const rows = page.getByRole('table', { name: 'Audit rows, newest first' }).getByRole('row')
  await expect(
    rows
      .filter({ hasText: 'change.propose' })
      .filter({ hasText: new RegExp(address, 'i') })
      .first(),
  ).toBeVisible()
  await expect(rows.filter({ hasText: 'job.retry' })).toHaveCount(0)

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'JSON Lines' }).click()
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-e2e-')), 'audit.jsonl')
  await (await download).saveAs(file)
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
  expect(lines.length).toBeGreaterThanOrEqual(2)
  expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ seq: '1', prevHash: '0'.repeat(64) })
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'cli/audit-verify.ts', '--file', file], {
    cwd: path.resolve(import.meta.dirname, '..', '..'),
    encoding: 'utf8',
    timeout: 60_000,
  })
  expect(run.status, run.stderr).toBe(0)
  expect(run.stdout).toContain(`the audit chain holds: ${lines.length} rows`)
})
