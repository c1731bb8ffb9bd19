import { createPublicClient, http } from 'viem'
import { formatOunces } from '../../components/reserves/format'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'
import { formatOz } from '../../lib/reserves/formatOz'
import { baseUrl, expect, loginAs, type MintAccepted, settleApproval, signedInRequest, test } from './fixtures'
import { requestMint } from './requestMint'
import { stackEnv } from './stackChain'

// The order page is live (docs/decisions/058-live-order-status.md): staff watch their mint go through pending,
// submitted and confirmed, each shown within a second of the step on its timeline. Automine is off while the
// test holds the transaction in the mempool, so `submitted` lasts until the test mines a block.

type Seen = { status: string; at: number }

const rpcUrl = () => stackEnv().RPC_URL

async function rpc(method: string, params: unknown[] = []): Promise<void> {
  const res = await fetch(rpcUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
}

test('the order page shows pending, submitted and confirmed, each within a second of its step', async ({ page }) => {
  const staff = await signedInRequest('staff')
  const { orderId } = await requestMint(staff)
  await staff.dispose()

  await loginAs(page, 'staff')
  await page.goto(`/mints/${orderId}`)
  await expect(page.getByText('Live: each step shows as it happens')).toBeVisible()
  const badge = page.locator('h1 + [data-status]')
  await expect(badge).toHaveAttribute('data-status', 'awaiting_approval')
  // every status the badge takes, with the browser's clock, as the DOM changes
  await page.evaluate(() => {
    const w = window as unknown as { seen: Seen[] }
    w.seen = []
    const look = () => {
      const status = document.querySelector('h1 + [data-status]')?.getAttribute('data-status')
      if (status && w.seen.at(-1)?.status !== status) w.seen.push({ status, at: Date.now() })
    }
    look()
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true })
  })

  await rpc('evm_setAutomine', [false])
  try {
    await settleApproval({ orderId, status: 'awaiting_approval' } satisfies MintAccepted)
    await expect(badge).toHaveAttribute('data-status', 'submitted', { timeout: 20_000 })
    await rpc('evm_mine')
  } finally {
    await rpc('evm_setAutomine', [true])
  }
  await expect(badge).toHaveAttribute('data-status', 'confirmed', { timeout: 20_000 })
  await expect(page.getByText('Up to date: nothing in flight')).toHaveCount(0)

  const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen)
  expect(seen.map((s) => s.status)).toEqual(['awaiting_approval', 'pending', 'submitted', 'confirmed'])
  // the step each status follows, on the order's own timeline
  const admin = await signedInRequest('admin')
  const res = await admin.get(`${baseUrl()}/api/gold/mint/${orderId}`)
  expect(res.status()).toBe(200)
  const { timeline } = (await res.json()) as { timeline: { at: string; event: string }[] }
  await admin.dispose()
  const stepOf: Record<string, string> = { pending: 'approved', submitted: 'broadcast', confirmed: 'confirmed' }
  for (const s of seen.slice(1)) {
    const step = timeline.find((e) => e.event === stepOf[s.status])
    expect(step, `the ${stepOf[s.status]} step of ${orderId}`).toBeDefined()
    const lag = s.at - Date.parse(step?.at ?? '')
    expect(lag, `${s.status} shown ${lag} ms after its step`).toBeLessThan(1_000)
  }
})

test("the admin dashboard's reserves follow the chain's supply within seconds, not at the next check", async ({
  page,
}) => {
  const staff = await signedInRequest('staff')
  const { orderId } = await requestMint(staff)
  await staff.dispose()
  await settleApproval({ orderId, status: 'awaiting_approval' })
  const admin = await signedInRequest('admin')
  await expect
    .poll(
      async () =>
        ((await (await admin.get(`${baseUrl()}/api/gold/mint/${orderId}`)).json()) as { status: string }).status,
      {
        timeout: 20_000,
      },
    )
    .toBe('confirmed')
  await admin.dispose()
  const client = createPublicClient({ transport: http(rpcUrl()) })
  const supply = await client.readContract({
    address: stackEnv().TOKEN_ADDRESS,
    abi: goldTokenAbi,
    functionName: 'totalSupply',
  })

  await loginAs(page, 'admin')
  await page.goto('/admin')
  const card = page.locator('[aria-labelledby="reserves-now-heading"]')
  // the web caches the reserves a few seconds; the reserve check runs once a minute
  await expect(card).toContainText(formatOunces(formatOz(supply)), { timeout: 10_000 })
})
