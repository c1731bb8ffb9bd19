import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobRecords, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { confirmControlChange } from '@/lib/web/changes/confirmControlChange'
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { type SmtpSink, startSmtpSink } from '@/scripts/stack/smtpSink'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import { stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { subscribeTestEndpoint } from './notificationFixtures'
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver'

/** the decoded text of a .eml (quoted-printable soft breaks and escapes undone) */
function readEml(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

// What a failed mint tells the outside (security review): a real worker refuses an order
// before signing (its recipient left the allowlist after the approvals, through a change two
// admins made), the order fails and its job goes to the dead letters; the mint.failed and
// mint.dead_letter webhooks reach a real receiver and the requester's email the SMTP sink.
// Each says why with the stable code, and carries none of the error's text, which the
// admin's job page alone shows.
describe('a failed mint: webhooks and email carry the reason code, never the error text', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let u: TestUsers
  let sink: SmtpSink
  let hook: WebhookReceiver
  let worker: WorkerProcess
  let orderId: string
  const ALICE = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
  const linkBase = 'http://mintdesk.test:3000'

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    u = await insertTestUsers(t.db)
    sink = await startSmtpSink({ mailDir: path.join(os.tmpdir(), `mintdesk-reasons-${Date.now()}-${process.pid}`) })
    hook = await startWebhookReceiver(() => ({ status: 200 }))
    await subscribeTestEndpoint(t.db, {
      url: hook.url,
      events: ['mint.failed', 'mint.dead_letter'],
      adminId: u.admin.id,
    })
    await allowRecipients(t.db, [ALICE])
    await stockBars(t.db, { vault: 'RSN-1', bars: [{ serial: 'RSN-BAR-1' }] })
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      maxAttempts: 5,
      request: buildMintRequest({ to: ALICE, vault: 'RSN-1', bars: [{ serial: 'RSN-BAR-1' }] }),
    })
    orderId = accepted.orderId
    // accepted at intake and signed by the dev approvers; then, before any worker runs, an
    // admin asks to take the recipient off the allowlist and a second admin confirms it
    await approveWithDevKeys(t.db, { orderId })
    const admin2 = await insertUser(t.db, 'admin')
    const { changeId } = await proposeControlChange(t.db, {
      kind: 'recipient.remove',
      params: { address: ALICE },
      author: u.admin,
      context: { tokenAddress: chain.tokenAddress },
    })
    await confirmControlChange(t.db, { changeId, confirmer: admin2, context: { tokenAddress: chain.tokenAddress } })
    const [listed] = await t.db.execute(sql`select 1 from allowed_recipients where address = ${ALICE.toLowerCase()}`)
    expect(listed).toBeUndefined()
    worker = startWorkerProcess({
      name: 'failure-reasons',
      env: workerEnv({ databaseUrl: t.url, chain, env: { SMTP_URL: sink.url, NOTIFY_LINK_BASE_URL: linkBase } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await hook?.close()
    await sink?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('the webhook bodies and the email say recipient_not_allowed; the refusal text stays in the job history', async () => {
    const bodies = await waitFor(
      async () => {
        const got = hook.received.map((r) => JSON.parse(r.rawBody) as { type: string; data: Record<string, unknown> })
        const types = got.map((b) => b.type).sort()
        return types.includes('mint.failed') && types.includes('mint.dead_letter') ? got : undefined
      },
      { timeoutMs: 45_000, what: `the mint.failed and mint.dead_letter webhooks (log ${worker.logFile})` },
    )
    // every email about the order: the approvers' requests at intake, then the requester's failure email
    const orderMails = () =>
      readdirSync(sink.mailDir)
        .map((f) => readEml(path.join(sink.mailDir, f)))
        .filter((m) => m.includes(`${linkBase}/mints/${orderId}`))
    const mails = await waitFor(
      async () => {
        const found = orderMails().filter((m) => new RegExp(`^To: ${u.staff.email}\\r?$`, 'm').test(m))
        return found.length > 0 ? found : undefined
      },
      { timeoutMs: 30_000, what: `the failure email to the requester (log ${worker.logFile})` },
    )

    // the internal text, as the admin's job page shows it: on the order and the dead job
    const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
    const [job] = await t.db
      .select()
      .from(jobRecords)
      .where(and(eq(jobRecords.orderId, orderId), eq(jobRecords.task, TASK.mintSend)))
    expect(order?.status).toBe('failed')
    expect(job?.state).toBe('dead')
    const internal = order?.failureReason ?? ''
    expect(internal).toMatch(/^refused to sign: .*is not on the recipient allowlist/)
    expect(job?.lastError).toContain(internal)

    const failed = bodies.find((b) => b.type === 'mint.failed')
    const dead = bodies.find((b) => b.type === 'mint.dead_letter')
    expect(failed?.data).toMatchObject({ orderId, status: 'failed', reason: 'recipient_not_allowed' })
    expect(dead?.data).toMatchObject({ orderId, task: TASK.mintSend, reason: 'recipient_not_allowed' })
    const [mail] = mails
    expect(mail).toContain('Reason: recipient_not_allowed: the recipient is not on the allowlist')

    // none of the internal message, in any form, reaches a receiver or a mailbox
    const fragments = [internal, 'refused to sign', 'recipient allowlist', internal.slice(0, 40), internal.slice(-40)]
    for (const [what, text] of [
      ...hook.received.map((r) => [`webhook ${r.eventId}`, r.rawBody] as const),
      ...orderMails().map((m) => ['email', m] as const),
    ]) {
      for (const fragment of fragments) expect(text, `${what} carries "${fragment}"`).not.toContain(fragment)
      expect(text, what).not.toContain(String(job?.lastError).split('\n')[1] ?? 'no stack')
    }
  }, 90_000)
})
