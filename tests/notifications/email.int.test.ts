import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailDeliveries, notificationEvents } from '@/db/schema'
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { rejectMintOrder } from '@/lib/web/approvals/rejectMintOrder'
import type { SmtpSink } from '@/scripts/stack/smtpSink'
import type { TestDatabase } from '@/tests/helpers/db'
import { addMintJob } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { readMailDir } from '@/tests/helpers/readEml'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertUser, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import type { WorkerProcess } from '@/tests/helpers/workerProcess'
import { markOrderFailed } from '@/worker/db/markOrderFailed'
import { markOrdersConfirmed } from '@/worker/db/markOrdersConfirmed'
import { confirmTestOrder } from './notificationFixtures'
import { type MailWorker, startMailWorker } from './startMailWorker'

// Email end to end: a real worker process sends through SMTP (nodemailer) to the
// local stack's sink (smtp-server), which keeps each message as a .eml file.
describe('notification emails through the SMTP sink', () => {
  let m: MailWorker
  let t: TestDatabase
  let u: TestUsers
  let sink: SmtpSink
  let worker: WorkerProcess
  const linkBase = 'http://mintdesk.test:3000'
  const mails = () => readMailDir(sink.mailDir)
  const mailsAbout = (orderId: string) => mails().filter((m) => m.includes(`${linkBase}/mints/${orderId}`))

  beforeAll(async () => {
    m = await startMailWorker({
      name: 'email',
      env: { NOTIFY_LINK_BASE_URL: linkBase, MAIL_FROM: 'mintdesk <desk@mintdesk.test>' },
    })
    ;({ t, u, sink, worker } = m)
  })
  afterAll(async () => {
    await m?.stop()
  })

  it('a confirmed order: the requester gets one email, plain text and HTML, with the link to the order', async () => {
    const { orderId, eventId } = await confirmTestOrder(t.db, { requestedBy: u.staff.id })
    const [mail] = await waitFor(async () => (mailsAbout(orderId).length > 0 ? mailsAbout(orderId) : undefined), {
      timeoutMs: 30_000,
      what: `the .eml of ${orderId} (log ${worker.logFile})`,
    })
    expect(mail).toContain('To: staff@mintdesk.test')
    expect(mail).toContain('From: mintdesk <desk@mintdesk.test>')
    expect(mail).toMatch(
      /Subject: \[mintdesk\] Your mint of 401\.084 oz to 0x7099… ?79C8 is confirmed \(order [0-9a-f]{8}\)/,
    )
    expect(mail).toContain('Content-Type: text/plain')
    expect(mail).toContain('Content-Type: text/html')
    expect(mail).toContain(`<a href="${linkBase}/mints/${orderId}">`)
    expect(mail).toMatch(new RegExp(`Mintdesk-Event-Id: evt_${eventId}`, 'i'))
    // the sink keeps the .eml before the worker completes the row (a commit after the SMTP answer)
    const row = await waitFor(
      async () => {
        const [r] = await t.db.select().from(emailDeliveries).where(eq(emailDeliveries.eventId, eventId))
        return r?.status === 'sent' ? r : undefined
      },
      { timeoutMs: 10_000, what: `the email row of ${eventId} sent` },
    )
    expect(row).toMatchObject({ status: 'sent', address: 'staff@mintdesk.test', attempts: 1, claimToken: null })
    // once: nothing more arrives for it
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(mailsAbout(orderId)).toHaveLength(1)
  }, 60_000)

  it('an order awaiting approval: each approver and admin but the requester; a failed order: its requester, with the reason code', async () => {
    const approver = await insertUser(t.db, 'approver')
    const waiting = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    await t.db.execute(sql`select public.on_mint_awaiting_approval(${waiting.id}::uuid)`)
    const failing = await insertOrder(t.db, { requestedBy: u.otherStaff.id, status: 'pending' })
    await t.db.transaction((tx) =>
      markOrderFailed(tx, { orderId: failing.id, reason: 'mint reverted on chain: FrozenAddress', code: 'reverted' }),
    )

    await waitFor(async () => mailsAbout(waiting.id).length >= 2 && mailsAbout(failing.id).length >= 1, {
      timeoutMs: 30_000,
      what: `approval and failure emails (log ${worker.logFile})`,
    })
    const approvals = mailsAbout(waiting.id)
    const to = approvals.map((m) => /^To: (.+)$/m.exec(m)?.[1]).sort()
    expect(to).toEqual([u.admin.email, approver.email].sort())
    expect(approvals[0]).toContain(`awaits your approval (order ${waiting.id.slice(0, 8)})`)
    expect(approvals[0]).toContain(`Approve or reject it: ${linkBase}/mints/${waiting.id}`)
    const [failed] = mailsAbout(failing.id)
    expect(failed).toContain('To: other-staff@mintdesk.test')
    // the reason's code, never the error's text (that stays on the admin's job page)
    expect(failed).toContain('Reason: reverted: the mint transaction reverted on chain')
    expect(failed).not.toContain('FrozenAddress')
    const events = await t.db
      .select({ type: notificationEvents.type })
      .from(notificationEvents)
      .where(eq(notificationEvents.orderId, failing.id))
    expect(events.map((e) => e.type)).toEqual(['mint.failed'])
  }, 60_000)

  it("a rejected and a cancelled order: each requester gets one email saying so, the subject names the order and the recipient's label", async () => {
    await allowRecipients(t.db, ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8']) // label 'test recipient'
    const approver = await insertUser(t.db, 'approver')
    const admin = await insertUser(t.db, 'admin')
    const waiting = await insertOrder(t.db, { requestedBy: u.staff.id, status: 'awaiting_approval' })
    await rejectMintOrder(t.db, {
      orderId: waiting.id,
      user: { id: approver.id, email: approver.email, role: 'approver' },
      reason: 'the receipt is for another vault',
    })
    const pending = await insertOrder(t.db, { requestedBy: u.otherStaff.id, status: 'pending' })
    // scheduled later, so this worker does not start it before the cancel
    const jobId = await addMintJob(t.db, { orderId: pending.id, runAt: new Date(Date.now() + 3_600_000) })
    await cancelJob(t.db, { jobId, actor: admin })

    await waitFor(async () => mailsAbout(waiting.id).length >= 1 && mailsAbout(pending.id).length >= 1, {
      timeoutMs: 30_000,
      what: `the rejection and cancel emails (log ${worker.logFile})`,
    })
    const [rejected] = mailsAbout(waiting.id)
    expect(rejected).toContain(`To: ${u.staff.email}`)
    expect(rejected).toContain(
      `Subject: [mintdesk] Your mint of 401.084 oz to test recipient was rejected (order ${waiting.id.slice(0, 8)})`,
    )
    expect(rejected).toContain('Reason given: the receipt is for another vault')
    const [cancelled] = mailsAbout(pending.id)
    expect(cancelled).toContain(`To: ${u.otherStaff.email}`)
    expect(cancelled).toContain(
      `Subject: [mintdesk] Your mint of 401.084 oz to test recipient was cancelled (order ${pending.id.slice(0, 8)})`,
    )
    expect(cancelled).toContain('Reason: cancelled: an admin cancelled it')
    // once each
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(mailsAbout(waiting.id)).toHaveLength(1)
    expect(mailsAbout(pending.id)).toHaveLength(1)
  }, 60_000)

  it('five confirmations of one requester committed together: one digest email listing the five orders, every row sent with its Message-ID', async () => {
    const orders = await Promise.all(
      Array.from({ length: 5 }, () => insertOrder(t.db, { requestedBy: u.otherStaff.id, status: 'submitted' })),
    )
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, {
        orders: orders.map((o) => ({ orderId: o.id, txHash: `0x${'cd'.repeat(32)}`, blockNumber: 2n })),
      }),
    )
    const digests = () => mails().filter((m) => orders.some((o) => m.includes(`${linkBase}/mints/${o.id}`)))
    const [digest] = await waitFor(async () => (digests().length > 0 ? digests() : undefined), {
      timeoutMs: 30_000,
      what: `the digest of 5 orders (log ${worker.logFile})`,
    })
    expect(digest).toContain('To: other-staff@mintdesk.test')
    expect(digest).toMatch(/Subject: \[mintdesk\] 5 of your mints are confirmed/)
    for (const o of orders) expect(digest).toContain(`<a href="${linkBase}/mints/${o.id}">`)
    const rows = await waitFor(
      async () => {
        const r = await t.db
          .select({ status: emailDeliveries.status, messageId: emailDeliveries.messageId })
          .from(emailDeliveries)
          .innerJoin(notificationEvents, eq(notificationEvents.id, emailDeliveries.eventId))
          .where(
            inArray(
              notificationEvents.orderId,
              orders.map((o) => o.id),
            ),
          )
        return r.length === 5 && r.every((x) => x.status === 'sent') ? r : undefined
      },
      { timeoutMs: 10_000, what: 'the five email rows sent' },
    )
    expect(new Set(rows.map((r) => r.messageId)).size).toBe(1)
    // headers unfolded (a long header goes on over lines that start with a space)
    expect(/^Message-ID: (.+)$/im.exec((digest ?? '').replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim()).toBe(
      rows[0]?.messageId,
    )
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(digests()).toHaveLength(1)
  }, 60_000)
})
