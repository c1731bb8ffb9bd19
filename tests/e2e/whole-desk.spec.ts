import { readFileSync } from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import type { Address } from 'viem'
import { listPages, samplePath } from '../attack/appRoutes'
import {
  baseUrl,
  expect,
  loginAs,
  type Role,
  saveScreenshot,
  settleApproval,
  sidewaysOverflow,
  signedInRequest,
  test,
} from './fixtures'
import { requestMint } from './requestMint'
import { sendTokens } from './stackChain'

// Every page of the app (read from app/ by listPages, so a page added tomorrow is held to
// it too), as the user it is for, at 1280 and 1024 px: no sideways scroll and no WCAG 2.1
// A/AA violation axe-core can find. Each page's screenshot at 1280 px is the one
// docs/screenshots/README.md shows (written there with UPDATE_SCREENSHOTS=1). The pages
// show real records: a confirmed mint, its job, a redemption of its two bars awaiting an
// approver, and another mint awaiting one.

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const WIDTHS = [1280, 1024] as const
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** Who sees each page (null: signed out), and the file its screenshot is kept in under docs/screenshots/pages/. */
const PAGES: Record<string, { role: Role | null; screenshot: string }> = {
  '/': { role: 'staff', screenshot: 'home.png' },
  '/account/signing-key': { role: 'approver', screenshot: 'account-signing-key.png' },
  '/admin': { role: 'admin', screenshot: 'admin.png' },
  '/admin/audit': { role: 'auditor', screenshot: 'admin-audit.png' },
  '/admin/changes': { role: 'admin', screenshot: 'admin-changes.png' },
  '/admin/compliance': { role: 'admin', screenshot: 'admin-compliance.png' },
  '/admin/controls': { role: 'admin', screenshot: 'admin-controls.png' },
  '/admin/dead': { role: 'admin', screenshot: 'admin-dead.png' },
  '/admin/jobs': { role: 'admin', screenshot: 'admin-jobs.png' },
  '/admin/jobs/[jobId]': { role: 'admin', screenshot: 'admin-job.png' },
  '/admin/users': { role: 'admin', screenshot: 'admin-users.png' },
  '/admin/vault': { role: 'admin', screenshot: 'admin-vault.png' },
  '/admin/webhooks': { role: 'admin', screenshot: 'admin-webhooks.png' },
  '/approvals': { role: 'approver', screenshot: 'approvals.png' },
  '/forbidden': { role: null, screenshot: 'forbidden.png' },
  '/login': { role: null, screenshot: 'login.png' },
  '/mints': { role: 'staff', screenshot: 'mints.png' },
  '/mints/[orderId]': { role: 'staff', screenshot: 'mint.png' },
  '/mints/new': { role: 'staff', screenshot: 'mints-new.png' },
  '/redemptions': { role: 'staff', screenshot: 'redemptions.png' },
  '/redemptions/[redemptionId]': { role: 'staff', screenshot: 'redemption.png' },
  '/reserves': { role: null, screenshot: 'reserves.png' },
}

type Records = { orderId: string; jobId: string; redemptionId: string }
let records: Records

/**
 * A confirmed two-bar mint to the holder (RECIPIENT), its job, and a redemption of those
 * two bars: the holder sends the 802.168 tokens to the redemption address, staff match the
 * deposit once the worker has seen it.
 */
async function setUpRecords(): Promise<Records> {
  const staff = await signedInRequest('staff')
  const minted = await requestMint(staff)
  const { jobId } = await settleApproval({ orderId: minted.orderId, status: 'awaiting_approval' })
  await expect
    .poll(
      async () => ((await (await staff.get(`/api/gold/mint/${minted.orderId}`)).json()) as { status: string }).status,
      {
        timeout: 60_000,
        intervals: [250, 500, 1000],
      },
    )
    .toBe('confirmed')
  const reserves = (await (await staff.get('/api/reserves')).json()) as { redemptionAddress: Address | null }
  expect(reserves.redemptionAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  const depositTx = await sendTokens({ to: reserves.redemptionAddress as Address, oz: '802.168' })
  await expect
    .poll(
      async () => {
        const deposits = (await (await staff.get('/api/gold/deposits?status=unmatched')).json()) as {
          items: { txHash: string }[]
        }
        return deposits.items.some((d) => d.txHash === depositTx)
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBe(true)
  // and an order left awaiting an approver, so /approvals shows its decision
  await requestMint(staff)
  const res = await staff.post('/api/gold/redemptions', {
    headers: { origin: baseUrl() },
    data: {
      depositTx,
      bars: minted.serials.map((serial) => ({ serial, refiner: 'Valcambi SA' })),
      reference: `REL-${minted.vault}`,
    },
  })
  expect(res.status(), await res.text()).toBe(202)
  const { redemptionId } = (await res.json()) as { redemptionId: string }
  await staff.dispose()
  return { orderId: minted.orderId, jobId, redemptionId }
}

/**
 * The page as its user leaves it: its heading shown, nothing still loading, no colour still
 * fading (a button enabled at hydration: axe would read its contrast halfway).
 */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('h1').first()).toBeVisible()
  await expect(page.getByText(/Loading/)).toHaveCount(0)
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition).length))
    .toBe(0)
}

test.beforeAll(async () => {
  test.setTimeout(150_000)
  records = await setUpRecords()
})

test('every page of app/ is listed here and in docs/screenshots/README.md (whose images tests/architecture checks)', () => {
  const patterns = listPages(ROOT).map((p) => p.pattern)
  expect(Object.keys(PAGES).sort()).toEqual([...patterns].sort())
  const index = readFileSync(path.join(ROOT, 'docs', 'screenshots', 'README.md'), 'utf8')
  for (const pattern of patterns) {
    expect(index, `docs/screenshots/README.md names ${pattern}`).toContain(`\`${pattern}\``)
    expect(index, `docs/screenshots/README.md shows ${pattern}`).toContain(`(pages/${PAGES[pattern]?.screenshot})`)
  }
})

for (const [pattern, { role, screenshot }] of Object.entries(PAGES)) {
  test(`${pattern} as ${role ?? 'a visitor'}: no sideways scroll at 1280 and 1024 px, no WCAG A/AA violation`, async ({
    page,
  }) => {
    if (role) await loginAs(page, role)
    const url = samplePath(pattern, records)
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      const res = await page.goto(url)
      expect(res?.status(), `${url} answers`).toBeLessThan(400)
      await settled(page)
      expect(await sidewaysOverflow(page), `sideways scroll on ${url} at ${width} px`).toBe(0)
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
      expect(
        violations.map((v) => ({
          rule: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
        })),
        `WCAG A/AA violations on ${url} at ${width} px`,
      ).toEqual([])
      if (width === 1280) await saveScreenshot(page, path.join('pages', screenshot))
    }
  })
}
