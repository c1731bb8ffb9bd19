import { randomUUID } from 'node:crypto'
import type { APIRequestContext, Page } from '@playwright/test'
import { type Address, createPublicClient, createTestClient, createWalletClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { goldMinterAbi } from '../../lib/chain/goldMinterAbi.generated'
import { freezeIntentTypedData } from '../../lib/chain/typedData'
import { devKey } from '../../lib/keys/devKeys'
import { orderIdToBytes32 } from '../../lib/mint/orderIdToBytes32'
import { parsePrometheusText } from '../helpers/parsePrometheusText'
import {
  allowRecipient,
  baseUrl,
  expect,
  loginAs,
  type MintAccepted,
  saveScreenshot,
  settleApproval,
  stockTestVault,
  test,
} from './fixtures'
import { stackChain, stackEnv } from './stackChain'

// The admin console against the real stack (web, worker, anvil, KMS endpoint). A job is
// made to fail for real: the recipient is frozen through GoldMinter on an approver's
// FreezeIntent signature (relayed by anvil's first dev account, which holds no role), so the
// mint reverts in simulation and the job is a dead letter at once. The admin sees it with its
// error, removes the cause (unfreeze), retries from the page and watches the order confirm.
// Screenshots of the dashboard, a job timeline and the dead letters go to docs/screenshots/
// for the README (with UPDATE_SCREENSHOTS=1).

const RELAYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const

/** Freezes or unfreezes an address through GoldMinter: an approver signs the FreezeIntent, anyone relays it. */
async function setFrozen(address: Address, frozen: boolean): Promise<void> {
  const env = stackEnv()
  const chain = stackChain()
  const wallet = createWalletClient({ account: privateKeyToAccount(RELAYER_KEY), chain, transport: http(env.RPC_URL) })
  const reader = createPublicClient({ chain, transport: http(env.RPC_URL) })
  const intent = {
    operationId: orderIdToBytes32(randomUUID()),
    account: address,
    frozen,
    deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
  }
  const domain = { chainId: Number(env.CHAIN_ID), verifyingContract: env.MINTER_ADDRESS }
  const approver = devKey('approver')
  const signature = await approver.signTypedData(freezeIntentTypedData(domain, intent))
  const hash = await wallet.writeContract({
    address: env.MINTER_ADDRESS,
    abi: goldMinterAbi,
    functionName: 'setFrozen',
    args: [intent, [{ signer: approver.address, signature }]],
  })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

function freshRecipient(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/**
 * Requests a one-bar mint through the API (the staff form is tested elsewhere), approved
 * by a second person when it needs one; returns its ids. The bar comes from a list of its
 * own, imported first in a vault of its own (the dev bars of LDN-1 stay for the form's
 * tests); named by serial + refiner only, the bar list gives its weights. The recipient
 * is put on the allowlist first.
 */
async function requestMint(request: APIRequestContext, to: Address): Promise<{ orderId: string; jobId: string }> {
  await allowRecipient(request, to)
  const { vault, bars } = await stockTestVault(request, { prefix: 'ADM', count: 1 })
  const res = await request.post(`${baseUrl()}/api/gold/mint`, {
    headers: { origin: baseUrl() },
    data: {
      to,
      amount: '401.084',
      vaultProof: {
        vault,
        receiptRef: `VR-${vault}`,
        documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        bars: bars.map((b) => ({ serial: b.serial, refiner: b.refiner })),
      },
    },
  })
  expect(res.status(), await res.text()).toBe(202)
  return settleApproval((await res.json()) as MintAccepted)
}

async function jobState(request: APIRequestContext, jobId: string): Promise<string> {
  const res = await request.get(`${baseUrl()}/api/admin/jobs/${jobId}`)
  if (res.status() !== 200) return `http ${res.status()}`
  return ((await res.json()) as { job: { state: string } }).job.state
}

async function orderStatus(request: APIRequestContext, orderId: string): Promise<string> {
  const res = await request.get(`${baseUrl()}/api/gold/mint/${orderId}`)
  return ((await res.json()) as { status: string }).status
}

async function waitForDead(request: APIRequestContext, jobId: string): Promise<void> {
  await expect.poll(() => jobState(request, jobId), { timeout: 45_000, intervals: [250, 500, 1000] }).toBe('dead')
}

/** Turns anvil's automine off (a broadcast mint stays pending) or on again (it mines). */
async function setAutomine(on: boolean): Promise<void> {
  const env = stackEnv()
  await createTestClient({ mode: 'anvil', chain: stackChain(), transport: http(env.RPC_URL) }).setAutomine(on)
}

type SystemNonces = {
  signers: {
    address: string
    pendingNonces: { nonce: number; operationId: string | null; maxFeePerGas: string | null }[]
  }[]
}

/** The order's pending nonce as GET /api/admin/system lists it, or null. */
async function pendingNonceOf(request: APIRequestContext, orderId: string) {
  const res = await request.get(`${baseUrl()}/api/admin/system`)
  const system = (await res.json()) as SystemNonces
  for (const s of system.signers)
    for (const n of s.pendingNonces) if (n.operationId === orderId) return { signerAddress: s.address, ...n }
  return null
}

/** The dead-letters table row of one job. */
function deadRow(page: Page, jobId: string) {
  return page.getByRole('row').filter({ has: page.getByRole('link', { name: `Job ${jobId}`, exact: true }) })
}

const screenshot = saveScreenshot

test.describe.configure({ mode: 'serial' })

test.describe('admin console', () => {
  test.use({ viewport: { width: 1360, height: 900 } })

  test('a failed mint lands in the dead letters with its error; fixed and retried from the page, it confirms', async ({
    page,
  }) => {
    test.setTimeout(120_000)
    const request = page.context().request
    const recipient = freshRecipient()
    await setFrozen(recipient, true)
    await loginAs(page, 'admin')
    const { orderId, jobId } = await requestMint(request, recipient)
    await waitForDead(request, jobId)

    // the dashboard shouts about it
    await page.goto('/admin')
    await expect(page.getByRole('heading', { name: 'Admin dashboard', level: 1 })).toBeVisible()
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: /dead letters?: jobs stopped for good \(attempts used up or a permanent error\)/ }),
    ).toBeVisible()
    await expect(page.getByRole('img', { name: /Throughput, last hour/ })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Queue depth, failure rate and run time per task' })).toContainText(
      'mint_send',
    )
    await expect(page.getByRole('region', { name: 'Signers', exact: true })).toContainText(
      /in sync|in flight|awaiting gap fill/,
    )
    await expect(page.getByRole('list', { name: 'Workers' })).toContainText('alive')
    await screenshot(page, 'dashboard.png')

    // the dead letters list it with its error
    await page.goto('/admin/dead')
    await expect(page.getByRole('heading', { name: /Dead letters/, level: 1 })).toBeVisible()
    const row = deadRow(page, jobId)
    await expect(row).toBeVisible()
    await expect(row).toContainText('mint_send')
    await expect(row).toContainText(/AccountFrozen|frozen/i)
    await screenshot(page, 'dead-letters.png')

    // the timeline says why
    await row.getByRole('link', { name: `Job ${jobId}`, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/admin/jobs/${jobId}$`))
    const timeline = page.getByRole('list', { name: 'Timeline' })
    await expect(timeline).toContainText('Enqueued')
    await expect(timeline).toContainText(/Dead letter/)
    await expect(page.getByText(/AccountFrozen|frozen/i).first()).toBeVisible()
    expect(await orderStatus(request, orderId)).toBe('failed')

    // fix the cause, retry from the page (with confirmation), watch it confirm
    await setFrozen(recipient, false)
    await page.getByRole('button', { name: `Retry job ${jobId}` }).click()
    const dialog = page.getByRole('dialog', { name: `Retry job #${jobId}?` })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Retry job' }).click()
    await expect(dialog).toBeHidden()
    await expect(timeline).toContainText('Retried by admin@mintdesk.local')
    await expect(timeline).toContainText('Confirmed', { timeout: 60_000 })
    await expect(page.getByRole('region', { name: /Order/ }).getByText('confirmed', { exact: true })).toBeVisible()
    expect(await orderStatus(request, orderId)).toBe('confirmed')
    await expect(page.getByRole('region', { name: 'Transactions', exact: true })).toContainText('gwei')
    // expand one folded stack so the screenshot shows it
    await page.getByText('Stack trace').first().click()
    await screenshot(page, 'job-timeline.png')
  })

  test('bulk retry of several dead letters', async ({ page }) => {
    test.setTimeout(150_000)
    const request = page.context().request
    const recipient = freshRecipient()
    await setFrozen(recipient, true)
    await loginAs(page, 'admin')
    const orders = [
      await requestMint(request, recipient),
      await requestMint(request, recipient),
      await requestMint(request, recipient),
    ]
    for (const o of orders) await waitForDead(request, o.jobId)
    await setFrozen(recipient, false)

    await page.goto('/admin/dead?task=mint_send')
    for (const o of orders) {
      const row = deadRow(page, o.jobId)
      await expect(row).toBeVisible()
      await row.getByRole('checkbox', { name: `Select job ${o.jobId}` }).check()
    }
    await page.getByRole('button', { name: 'Retry selected (3)' }).click()
    const dialog = page.getByRole('dialog', { name: 'Retry 3 selected jobs?' })
    await dialog.getByRole('button', { name: 'Retry 3 jobs' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Retried 3 jobs.' })).toBeVisible()
    for (const o of orders) await expect(deadRow(page, o.jobId)).toHaveCount(0)

    for (const o of orders) {
      await expect
        .poll(() => orderStatus(request, o.orderId), { timeout: 60_000, intervals: [500, 1000] })
        .toBe('confirmed')
    }
  })

  test('cancel asks for confirmation, then stops the job and cancels its order', async ({ page }) => {
    test.setTimeout(90_000)
    const request = page.context().request
    const recipient = freshRecipient()
    await setFrozen(recipient, true)
    await loginAs(page, 'admin')
    const { orderId, jobId } = await requestMint(request, recipient)
    await waitForDead(request, jobId)

    await page.goto('/admin/dead')
    const row = deadRow(page, jobId)
    await row.getByRole('button', { name: `Cancel job ${jobId}` }).click()
    let dialog = page.getByRole('dialog', { name: `Cancel job #${jobId}?` })
    await expect(dialog).toContainText('cannot be undone')
    // second thoughts: nothing happens
    await dialog.getByRole('button', { name: 'Keep job' }).click()
    await expect(dialog).toBeHidden()
    expect(await jobState(request, jobId)).toBe('dead')

    await row.getByRole('button', { name: `Cancel job ${jobId}` }).click()
    dialog = page.getByRole('dialog', { name: `Cancel job #${jobId}?` })
    await dialog.getByRole('button', { name: 'Cancel job' }).click()
    await expect(deadRow(page, jobId)).toHaveCount(0)
    expect(await jobState(request, jobId)).toBe('cancelled')
    expect(await orderStatus(request, orderId)).toBe('cancelled')

    await page.goto(`/admin/jobs/${jobId}`)
    await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Cancelled by admin@mintdesk.local')
    await setFrozen(recipient, false)
  })

  test("a failed order's page says its outcome first, and an admin retries its job there", async ({ page }) => {
    test.setTimeout(90_000)
    const request = page.context().request
    const recipient = freshRecipient()
    await setFrozen(recipient, true)
    await loginAs(page, 'admin')
    const { orderId, jobId } = await requestMint(request, recipient)
    await waitForDead(request, jobId)
    await expect.poll(() => orderStatus(request, orderId)).toBe('failed')

    await page.goto(`/mints/${orderId}`)
    // the outcome and its reason on top, no "Approved" banner above it
    const outcome = page.getByRole('alert', { name: 'Outcome' })
    await expect(outcome).toContainText('Failed: nothing was minted')
    await expect(outcome).toContainText('Why:')
    await expect(outcome).toContainText('It had been approved by approver@mintdesk.local')
    await expect(page.getByRole('status', { name: 'Decision' })).toHaveCount(0)
    const outcomeTop = (await outcome.boundingBox())?.y ?? Number.POSITIVE_INFINITY
    const amountTop = (await page.getByText('Amount', { exact: true }).boundingBox())?.y ?? 0
    expect(outcomeTop).toBeLessThan(amountTop)

    // the admin's actions on the order's page: the jobs pages' retry and cancel
    const jobs = page.getByRole('region', { name: 'Jobs you can act on' })
    await expect(jobs.getByRole('button', { name: `Cancel job ${jobId}` })).toBeVisible()
    await setFrozen(recipient, false)
    await jobs.getByRole('button', { name: `Retry job ${jobId}` }).click()
    await page
      .getByRole('dialog', { name: `Retry job #${jobId}?` })
      .getByRole('button', { name: 'Retry job' })
      .click()
    // the desk's part (the API says confirmed), then the page's (it shows it without a reload)
    await expect
      .poll(() => orderStatus(request, orderId), { timeout: 45_000, intervals: [500, 1000] })
      .toBe('confirmed')
    await expect(page.locator('[data-status="confirmed"]')).toBeVisible({ timeout: 15_000 })
    await expect(page.getByRole('alert', { name: 'Outcome' })).toHaveCount(0)
  })

  test('the jobs list filters by state, task and free text', async ({ page }) => {
    await loginAs(page, 'admin')
    await page.goto('/admin/jobs')
    await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible()
    await page.getByRole('navigation', { name: 'Job states' }).getByRole('link', { name: 'cancelled' }).click()
    await expect(page).toHaveURL(/state=cancelled/)
    const table = page.getByRole('table', { name: 'Jobs, newest first' })
    await expect(table.getByRole('row').nth(1)).toContainText('cancelled')
    await page.getByRole('searchbox', { name: 'Search jobs' }).fill('task:mint_send is frozen')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/task=mint_send/)
    await expect(table.getByRole('row').nth(1)).toContainText(/AccountFrozen|frozen/i)
  })

  test('the housekeeping tasks stay out of the jobs list until "Show housekeeping" is ticked', async ({ page }) => {
    await loginAs(page, 'admin')
    await page.goto('/admin/jobs')
    const table = page.getByRole('table', { name: 'Jobs, newest first' })
    await expect(table.getByRole('row').nth(1)).toBeVisible()
    // nonce_health runs every few seconds from the worker's start: none of its done or waiting jobs is listed
    await expect(table.getByRole('cell', { name: 'nonce_health', exact: true })).toHaveCount(0)
    const box = page.getByRole('checkbox', { name: /Show housekeeping/ })
    await expect(box).not.toBeChecked()
    // the box follows the URL (router.replace), so it is clicked, then found ticked
    await box.click()
    await expect(page).toHaveURL(/housekeeping=show/)
    await expect(box).toBeChecked()
    await expect(table.getByRole('cell', { name: 'nonce_health', exact: true }).first()).toBeVisible()
    // the URL keeps it: a reload lists them still
    await page.reload()
    await expect(page.getByRole('checkbox', { name: /Show housekeeping/ })).toBeChecked()
    await expect(table.getByRole('cell', { name: 'nonce_health', exact: true }).first()).toBeVisible()
  })

  test('the dashboard refreshes live and can be paused', async ({ page }) => {
    await loginAs(page, 'admin')
    await page.goto('/admin')
    const pause = page.getByRole('button', { name: 'Pause auto-refresh' })
    await expect(pause).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByText(/Live, every 5 s/)).toBeVisible()
    await pause.click()
    await expect(page.getByRole('button', { name: 'Resume auto-refresh' })).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('status').filter({ hasText: /^Paused/ })).toBeVisible()
    // the dead letters are always stated, loudly when there are any
    await expect(page.getByText(/No dead letters|dead letters?: jobs stopped for good/)).toBeVisible()
  })

  test("a stuck mint's nonce: the admin speeds it up from the signers panel and resyncs the signer; an auditor sees the list without buttons", async ({
    page,
  }) => {
    test.setTimeout(150_000)
    const request = page.context().request
    await loginAs(page, 'admin')
    await setAutomine(false)
    try {
      const { orderId } = await requestMint(request, freshRecipient())
      await expect
        .poll(async () => (await pendingNonceOf(request, orderId))?.maxFeePerGas ?? null, { timeout: 45_000 })
        .not.toBeNull()
      const before = await pendingNonceOf(request, orderId)
      if (!before?.maxFeePerGas) throw new Error('no pending transaction')

      await page.goto('/admin')
      const nonces = page.getByRole('region', { name: /^Pending nonces of / }).filter({ hasText: 'submitted' })
      await nonces.getByRole('button', { name: `Speed up nonce ${before.nonce}`, exact: true }).click()
      const form = page.getByRole('form', { name: `Speed up nonce ${before.nonce}` })
      // prefilled with the newest fees +12.5%, in gwei
      await expect(form.getByLabel('Max fee (gwei)')).not.toHaveValue('')
      await expect(form.getByLabel('Priority fee (gwei)')).not.toHaveValue('')
      await page.screenshot({ path: '.data/test-results/playwright/admin-speed-up.png', fullPage: true })
      await form.getByRole('button', { name: 'Send speed-up' }).click()
      await expect(
        page.getByRole('status').filter({ hasText: `Speed-up of nonce ${before.nonce} queued` }),
      ).toBeVisible()
      // the worker re-signs the same nonce at the higher fees
      await expect
        .poll(async () => BigInt((await pendingNonceOf(request, orderId))?.maxFeePerGas ?? '0'), { timeout: 45_000 })
        .toBeGreaterThan(BigInt(before.maxFeePerGas))

      // words, not a silent failure: a fee no higher than the newest is refused by the server
      await nonces.getByRole('button', { name: `Speed up nonce ${before.nonce}`, exact: true }).click()
      await form.getByLabel('Max fee (gwei)').fill('0.000000001')
      await form.getByLabel('Priority fee (gwei)').fill('0.000000001')
      await form.getByRole('button', { name: 'Send speed-up' }).click()
      await expect(page.getByRole('alert').filter({ hasText: /12\.5%|fee/i })).toBeVisible()
      await form.getByRole('button', { name: 'Close' }).click()

      await page
        .getByRole('button', { name: new RegExp(`^Resync nonces of ${before.signerAddress.slice(0, 8)}`) })
        .click()
      await expect(page.getByRole('status').filter({ hasText: /Resync of .* queued \(job \d+\)/ })).toBeVisible()

      await loginAs(page, 'auditor')
      await page.goto('/admin')
      await expect(
        page.getByRole('region', { name: /^Pending nonces of / }).filter({ hasText: 'submitted' }),
      ).toContainText(String(before.nonce))
      await expect(page.getByRole('button', { name: /^Speed up nonce|^Cancel nonce|^Resync nonces/ })).toHaveCount(0)
      await loginAs(page, 'admin')
    } finally {
      await setAutomine(true)
    }
  })

  test('staff cannot reach any of it: 403 on the API, a clear page in the browser', async ({ page }) => {
    await loginAs(page, 'staff')
    const request = page.context().request
    const gets = ['/api/admin/jobs', '/api/admin/jobs/1', '/api/admin/metrics', '/api/admin/system']
    for (const p of gets) {
      const res = await request.get(`${baseUrl()}${p}`)
      expect(res.status(), p).toBe(403)
      expect(await res.json()).toMatchObject({ error: { code: 'forbidden' } })
    }
    const posts: [string, unknown][] = [
      ['/api/admin/jobs/1/retry', undefined],
      ['/api/admin/jobs/1/cancel', undefined],
      ['/api/admin/jobs/retry', { state: 'dead' }],
    ]
    for (const [p, data] of posts) {
      const res = await request.post(`${baseUrl()}${p}`, { headers: { origin: baseUrl() }, data })
      expect(res.status(), p).toBe(403)
    }
    for (const p of ['/admin', '/admin/jobs', '/admin/dead', '/admin/jobs/1']) {
      await page.goto(p)
      await expect(page.getByRole('heading', { name: /access denied|not allowed|forbidden/i })).toBeVisible()
      await expect(page.getByRole('heading', { name: 'Admin dashboard' })).toHaveCount(0)
    }
  })

  test('GET /api/metrics speaks Prometheus with the bearer token only', async ({ request }) => {
    const url = `${baseUrl()}/api/metrics`
    expect((await request.get(url)).status()).toBe(401)
    expect((await request.get(url, { headers: { authorization: 'Bearer wrong' } })).status()).toBe(401)
    const res = await request.get(url, { headers: { authorization: `Bearer ${stackEnv().METRICS_TOKEN}` } })
    expect(res.status()).toBe(200)
    const text = await res.text()
    expect(text).toContain('# TYPE mintdesk_dead_letters gauge')
    expect(text).toMatch(/^mintdesk_jobs\{task="mint_send",state="queued"\} \d+$/m)
    expect(text).toMatch(/^mintdesk_workers_alive [1-9]/m)
    expect(text).toContain('mintdesk_chain_up 1')
    // the whole exposition passes the strict reader; counters and histograms are there
    const families = parsePrometheusText(text)
    expect(families.get('mintdesk_orders_total')?.type).toBe('counter')
    expect(families.get('mintdesk_job_attempts_total')?.type).toBe('counter')
    expect(families.get('mintdesk_job_run_duration_seconds')?.type).toBe('histogram')
  })
})
