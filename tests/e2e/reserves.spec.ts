import type { APIRequestContext } from '@playwright/test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { formatOunces } from '../../components/reserves/format'
import type { ApiMintOrder } from '../../lib/web/mint/apiTypes'
import type { ApiReserveHistory, ApiReserves } from '../../lib/web/reserves/apiTypes'
import {
  allowRecipient,
  baseUrl,
  expect,
  type MintAccepted,
  saveScreenshot,
  settleApproval,
  signedInRequest,
  stockTestVault,
  test,
} from './fixtures'

// The public proof of reserve: /reserves answers a visitor who never signed
// in, with the figures of GET /api/reserves, the bar lists' dates, the latest check and
// the lookup of the bars behind a mint. The mint is set up through the API as an admin
// (a vault and bars of its own); the page is then used signed out.

test.describe.configure({ mode: 'serial' })

type Order = { orderId: string; to: string; txHash: string; serials: string[] }

/**
 * A two-bar mint (802.168 oz) to a fresh address (put on the
 * recipient allowlist first), approved by a second person, confirmed.
 */
async function confirmedMint(admin: APIRequestContext): Promise<Order> {
  const { vault, bars } = await stockTestVault(admin, { prefix: 'RSV', count: 2 })
  const to = privateKeyToAccount(generatePrivateKey()).address
  await allowRecipient(admin, to, 'reserves e2e')
  const res = await admin.post(`${baseUrl()}/api/gold/mint`, {
    headers: { origin: baseUrl() },
    data: {
      to,
      amount: '802.168',
      vaultProof: {
        vault,
        receiptRef: `VR-${vault}`,
        documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        bars: bars.map((b) => ({ serial: b.serial, refiner: b.refiner })),
      },
    },
  })
  expect(res.status(), await res.text()).toBe(202)
  const { orderId } = await settleApproval((await res.json()) as MintAccepted)
  let txHash = ''
  await expect
    .poll(
      async () => {
        const order = (await (await admin.get(`${baseUrl()}/api/gold/mint/${orderId}`)).json()) as ApiMintOrder
        txHash = order.tx?.hash ?? ''
        return order.status
      },
      { timeout: 45_000, intervals: [250, 500, 1000] },
    )
    .toBe('confirmed')
  expect(txHash).toMatch(/^0x[0-9a-f]{64}$/)
  return { orderId, to, txHash, serials: bars.map((b) => b.serial) }
}

test.describe('the public reserves page', () => {
  let order: Order

  test.beforeAll(async () => {
    const admin = await signedInRequest('admin')
    order = await confirmedMint(admin)
    await admin.dispose()
  })

  test('signed out: the figures of GET /api/reserves, the bar lists and the latest check', async ({ page }) => {
    const sessionCookies = async () => (await page.context().cookies()).filter((c) => c.name.includes('session-token'))
    expect(await sessionCookies()).toEqual([])
    const res = await page.goto('/reserves')
    expect(res?.status()).toBe(200)
    await expect(page).toHaveURL(/\/reserves$/)
    await expect(page.getByRole('heading', { name: 'Proof of reserve', level: 1 })).toBeVisible()
    // no navigation of the signed-in app, and no session made
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)

    // the page shows what the public API answers (reloaded until both agree: another
    // spec's mint may land in between), and this spec's vault: an answer is served for
    // RESERVES_LIMITS.cacheMs, so one read before its bar list was imported may still be
    // served after the mint is confirmed
    const lists = page.getByRole('table', { name: 'Latest bar list of each vault' })
    const vault = order.serials[0]?.replace(/-1$/, '') ?? ''
    await expect(async () => {
      const api = (await (await page.request.get('/api/reserves')).json()) as ApiReserves
      await page.reload()
      for (const [label, value] of [
        ['Token supply (on chain)', api.totalSupply],
        ['Backing', api.backingFineOz],
        ['In flight', api.inFlightFineOz],
        ['Available', api.availableFineOz],
        ['Shortfall', api.shortfallOz],
      ] as const) {
        await expect(page.getByLabel(`${label}: ${formatOunces(value)}`)).toBeVisible({ timeout: 1_000 })
      }
      await expect(
        page.getByText(api.status === 'covered' ? 'Covered' : 'Shortfall', { exact: true }).first(),
      ).toBeVisible({ timeout: 1_000 })
      await expect(lists.getByRole('row').filter({ hasText: vault })).toHaveCount(1, { timeout: 1_000 })
    }).toPass({ timeout: 30_000 })

    await expect(lists.getByRole('row').filter({ hasText: vault })).toContainText(
      /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/,
    )
    await expect(lists.getByRole('row').filter({ hasText: 'LDN-1' })).toHaveCount(1)
    // the worker records a check when it starts, then every minute
    await expect(async () => {
      await page.reload()
      await expect(page.getByText(/^Latest check: \d{4}-\d{2}-\d{2} .* UTC at block \d+/)).toBeVisible({
        timeout: 1_000,
      })
    }).toPass({ timeout: 30_000 })
    // the chart of the checks: the same points as GET /api/reserves/history, as a picture and as a table
    const bad = await page.request.get('/api/reserves/history?days=0')
    expect(bad.status()).toBe(422)
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('validation_failed')
    const history = (await (await page.request.get('/api/reserves/history?days=1')).json()) as ApiReserveHistory
    expect(history.points.length).toBeGreaterThan(0)
    await page.goto('/reserves?days=1')
    await expect(
      page.getByRole('navigation', { name: 'Chart window' }).getByRole('link', { name: '1 day' }),
    ).toHaveAttribute('aria-current', 'page')
    await expect(
      page.getByRole('img', {
        name: /^Supply from [\d,.]+ oz to [\d,.]+ oz over the last day; (covered at every|a shortfall at)/,
      }),
    ).toBeVisible()
    await page.getByText(/^The (point|\d+ points) as a table$/).click()
    const points = page.getByRole('table', { name: 'Supply and backing at each check shown' }).getByRole('row')
    // the header row, at least the points the API gave a moment ago (a check a minute may add one), and now
    expect(await points.count()).toBeGreaterThanOrEqual(history.points.length + 2)
    await expect(points.last()).toContainText('(now, from the chain)')
    // the last point is the supply the page shows above
    const supplyShown = (await page.getByLabel(/^Token supply \(on chain\): /).getAttribute('aria-label'))?.split(
      ': ',
    )[1]
    expect(supplyShown).toMatch(/ oz$/)
    await expect(points.last()).toContainText(supplyShown ?? '')
    expect(await sessionCookies()).toEqual([])
    await saveScreenshot(page, 'reserves.png')
  })

  test('signed out: the lookup lists the bars behind a mint, by address and by transaction, and links to its result', async ({
    page,
  }) => {
    await page.goto('/reserves')
    const box = page.getByLabel('Address, transaction hash or bar serial')

    await box.fill('0x1234')
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(page.getByText(/Enter an address \(0x and 40 hex digits\), a transaction hash/)).toBeVisible()

    await box.fill(order.to)
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(page).toHaveURL(new RegExp(`\\?address=${order.to}$`))
    const mint = page.getByRole('region', {
      name: `Mint of ${formatOunces('802.168')} in ${order.txHash}`,
      exact: true,
    })
    await expect(mint).toBeVisible()
    for (const serial of order.serials) {
      const row = mint.getByRole('row').filter({ has: page.getByRole('rowheader', { name: serial, exact: true }) })
      await expect(row).toContainText('Valcambi SA')
      await expect(row).toContainText(formatOunces('401.084'))
      await expect(row).toContainText('listed')
    }

    await box.fill(order.txHash)
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(page).toHaveURL(new RegExp(`\\?tx=${order.txHash}$`))
    await expect(mint).toBeVisible()

    // by a bar's serial, as an auditor with the bar list in hand: the bar, what it backs, the mint
    const serial = order.serials[0] ?? ''
    await box.fill(serial.toLowerCase())
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(page).toHaveURL(new RegExp(`\\?serial=${serial.toLowerCase()}$`))
    await expect(page.getByRole('list', { name: 'Bars of this serial' })).toContainText(`Bar ${serial} (Valcambi SA`)
    await expect(page.getByRole('list', { name: 'Bars of this serial' })).toContainText(
      'backs the confirmed mint below',
    )
    await expect(mint).toBeVisible()
    await box.fill('NO-SUCH-BAR-1')
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(page.getByText('No bar with this serial is on the bar lists.')).toBeVisible()
    await expect(page.getByText('No confirmed mint backed by this serial.')).toBeVisible()

    // a link to a result opens with it, still signed out
    await page.goto(`/reserves?address=${order.to}`)
    await expect(
      page.getByRole('region', { name: `Mint of ${formatOunces('802.168')} in ${order.txHash}`, exact: true }),
    ).toBeVisible()
    await page.goto(`/reserves?address=0x${'1'.repeat(40)}`)
    await expect(page.getByText('No confirmed mint to this address.')).toBeVisible()

    // nothing else opened up: a signed-in page still sends the visitor to sign in
    await page.goto('/mints')
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fmints$/)
  })
})
