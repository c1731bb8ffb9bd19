import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test'
import { devKey } from '../../lib/keys/devKeys'
import { mintApprovalSchema } from '../../lib/web/signing/apiTypes'
import { toViemTypedData } from '../../lib/web/signing/toViemTypedData'
import { freePort } from '../../scripts/stack/freePort'
import { DEV_RECIPIENTS } from '../../scripts/stack/seedDevRecipients'
import { type Stack, startStack } from '../../scripts/stack/startStack'

// The mint flow with QUEUE_TRANSPORT=sqs, on a stack of its own (the suite's
// stack runs the default transport): request, approve, and the order is confirmed through
// the outbox, the embedded SQS endpoint and the worker's consumer; the admin sees the
// transport and the SQS dead-letter queue beside graphile-worker's dead jobs.

const root = path.resolve(import.meta.dirname, '..', '..')
let stack: Stack
let dataDir: string

test.describe.configure({ mode: 'serial', timeout: 180_000 })

test.beforeAll(async () => {
  test.setTimeout(240_000)
  dataDir = path.join(root, '.data', `e2e-sqs-${process.pid}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  stack = await startStack({
    root,
    dataDir,
    env: { QUEUE_TRANSPORT: 'sqs' },
    port: await freePort(),
    blockTime: 0,
    childLogFile: path.join(dataDir, 'children.log'),
    log: () => {},
  })
})

test.afterAll(async () => {
  await stack?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function signedIn(role: 'staff' | 'approver' | 'admin'): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: stack.url })
  const csrf = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string }
  await ctx.post('/api/auth/callback/credentials', {
    form: {
      csrfToken: csrf.csrfToken,
      email: `${role}@mintdesk.local`,
      password: `${role}-dev-password`,
      callbackUrl: stack.url,
    },
    headers: { origin: stack.url },
    maxRedirects: 0,
  })
  return ctx
}

test('QUEUE_TRANSPORT=sqs: a requested and approved mint is confirmed through SQS', async ({ page }) => {
  expect(stack.env.SQS_QUEUE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
  expect(stack.env.SQS_DLQ_URL).toBeDefined()
  const staff = await signedIn('staff')
  const approver = await signedIn('approver')
  const admin = await signedIn('admin')
  try {
    const system = await admin.get('/api/admin/system')
    expect(((await system.json()) as { transport: string }).transport).toBe('sqs')

    const bars = (await (await staff.get('/api/vault/bars?vault=LDN-1&status=available')).json()) as {
      items: { serial: string; refiner: string; fineOz: string }[]
    }
    const bar = bars.items[0]
    if (!bar) throw new Error('no available bar in LDN-1')
    const requested = await staff.post('/api/gold/mint', {
      headers: { origin: stack.url },
      data: {
        to: DEV_RECIPIENTS[0],
        amount: bar.fineOz,
        vaultProof: {
          vault: 'LDN-1',
          receiptRef: `VR-SQS-${Date.now()}`,
          documentSha256: 'ab'.repeat(32),
          bars: [{ serial: bar.serial, refiner: bar.refiner }],
        },
      },
    })
    expect(requested.status(), await requested.text()).toBe(202)
    const { orderId } = (await requested.json()) as { orderId: string }
    // the approver signs the order's intent with their own (dev) key
    const approval = await approver.get(`/api/gold/mint/${orderId}/approval`)
    expect(approval.status(), await approval.text()).toBe(200)
    const { typedData } = mintApprovalSchema.parse(await approval.json())
    const signature = await devKey('approver').signTypedData(toViemTypedData(typedData))
    const approved = await approver.post(`/api/gold/mint/${orderId}/approve`, {
      headers: { origin: stack.url },
      data: { signature },
    })
    expect(approved.status(), await approved.text()).toBe(200)

    await expect
      .poll(async () => ((await (await staff.get(`/api/gold/mint/${orderId}`)).json()) as { status: string }).status, {
        timeout: 60_000,
        intervals: [500],
      })
      .toBe('confirmed')
    const order = (await (await admin.get(`/api/gold/mint/${orderId}`)).json()) as {
      timeline: { event: string; detail?: string | null }[]
    }
    expect(order.timeline.some((e) => e.event === 'enqueued' && (e.detail ?? '').includes('SQS'))).toBe(true)

    // the admin's dead letters: the SQS dead-letter queue, empty, beside graphile-worker's
    const dead = (await (await admin.get('/api/admin/dead-letters/sqs')).json()) as {
      transport: string
      items: unknown[]
      metrics: { deadLetters: number }
    }
    expect(dead).toMatchObject({ transport: 'sqs', items: [], metrics: { deadLetters: 0 } })
    const cookies = await admin.storageState()
    await page.context().addCookies(cookies.cookies)
    await page.goto(`${stack.url}/admin/dead`)
    await expect(page.getByRole('heading', { name: 'Dead letters' })).toBeVisible()
    await expect(page.getByRole('heading', { name: /SQS dead-letter queue/ })).toBeVisible()
    await expect(page.getByText('The dead-letter queue is empty.')).toBeVisible()
  } finally {
    await Promise.all([staff.dispose(), approver.dispose(), admin.dispose()])
  }
})
