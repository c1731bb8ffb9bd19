import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { verifyStandardWebhook } from '../helpers/verifyStandardWebhook'
import {
  allowRecipient,
  baseUrl,
  expect,
  loginAs,
  type MintAccepted,
  saveScreenshot,
  settleApproval,
  signedInRequest,
  stockTestVault,
  test,
} from './fixtures'

// Webhooks and email against the real stack: an admin subscribes a local
// receiver on /admin/webhooks (the secret shown once), a mint confirms, the receiver gets
// the signed event (after one refused attempt), the page shows the delivery with its
// attempts and redelivers it; the requester's email lands in the stack's .data/mail/.

type Received = { eventId: string; headers: Record<string, string>; rawBody: string }

async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        eventId: String(req.headers['webhook-id']),
        headers: Object.fromEntries(
          Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
        ),
        rawBody: Buffer.concat(chunks).toString('utf8'),
      })
      // the first request is refused: the page then shows two attempts
      res.writeHead(received.length === 1 ? 500 : 200).end(received.length === 1 ? 'try later' : 'ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mintdesk`, received, server }
}

async function requestConfirmedMint(admin: APIRequestContext, to: Address): Promise<string> {
  await allowRecipient(admin, to)
  const { vault, bars } = await stockTestVault(admin, { prefix: 'WHK', count: 1 })
  const res = await admin.post(`${baseUrl()}/api/gold/mint`, {
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
  const { orderId } = await settleApproval((await res.json()) as MintAccepted)
  return orderId
}

test('an admin subscribes an endpoint, sees the secret once, and follows a signed delivery to redeliver it; the email lands in .data/mail', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const receiver = await startReceiver()
  try {
    await loginAs(page, 'admin')
    await page.goto('/admin/webhooks')
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible()
    await page.getByLabel('Endpoint URL').fill(receiver.url)
    await page.getByRole('button', { name: 'Subscribe' }).click()
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? ''
    expect(secret).toMatch(/^whsec_/)

    // shown once: not after a reload, not in the list's API
    await page.reload()
    await expect(page.getByRole('cell', { name: receiver.url, exact: true })).toBeVisible()
    expect(await page.content()).not.toContain(secret)

    const admin = await signedInRequest('admin')
    const orderId = await requestConfirmedMint(admin, privateKeyToAddress(generatePrivateKey()))
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2)
    const delivered = receiver.received[1]
    expect(delivered && verifyStandardWebhook({ secret, rawBody: delivered.rawBody, headers: delivered.headers })).toBe(
      true,
    )
    expect(JSON.parse(delivered?.rawBody ?? '{}')).toMatchObject({
      type: 'mint.confirmed',
      data: { orderId, status: 'confirmed', amount: '401.084' },
    })

    await page.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click()
    const row = page.getByTestId('delivery-row').filter({ hasText: delivered?.eventId ?? '' })
    await expect(row.getByText('delivered', { exact: true })).toBeVisible({ timeout: 15_000 })
    await expect(row.getByText('#1 500')).toBeVisible()
    await expect(row.getByText('#2 200')).toBeVisible()
    await saveScreenshot(page, 'admin-webhooks.png')
    await row.getByRole('button', { name: `Redeliver ${delivered?.eventId}` }).click()
    await expect(page.getByText('will be sent again')).toBeVisible()
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3)
    expect(receiver.received[2]?.eventId).toBe(delivered?.eventId)

    // the requester (the admin) got the confirmation email, kept by the stack's SMTP sink
    const mailDir = path.join(process.env.E2E_DATA_DIR ?? '', 'mail')
    await expect
      .poll(
        () =>
          readdirSync(mailDir).some((f) =>
            readFileSync(path.join(mailDir, f), 'utf8')
              .replace(/=\r?\n/g, '')
              .includes(`/mints/${orderId}`),
          ),
        { timeout: 30_000 },
      )
      .toBe(true)
    await admin.dispose()
  } finally {
    receiver.server.closeAllConnections()
    receiver.server.close()
  }
})
