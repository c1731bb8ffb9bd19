import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { emailDeliveries, notificationEvents } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { EmailSendFailedError, NotificationClaimedError } from '@/lib/errors/notifications'
import { notificationSettings } from '@/lib/notifications/notificationSettings'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import { type SmtpSink, startSmtpSink } from '@/scripts/stack/smtpSink'
import type { TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { readMailDir } from '@/tests/helpers/readEml'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'
import { markOrdersConfirmed } from '@/worker/db/markOrdersConfirmed'
import { claimEmails } from './claimEmails'
import { dispatchNotificationBatch } from './dispatchNotificationBatch'
import type { NotifyRun } from './NotifyContext'
import { sendNotificationEmail } from './sendNotificationEmail'

// One email job's attempt against the real database and the local SMTP sink: the digest of
// several events to one address, on the same claims as a single email.
describe('sendNotificationEmail', () => {
  let t: TestDatabase
  let u: TestUsers
  let sink: SmtpSink
  let mailDir: string
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))
  beforeAll(async () => {
    sink = await startSmtpSink({ mailDir: mkdtempSync(path.join(os.tmpdir(), 'mintdesk-digest-')) })
    mailDir = sink.mailDir
  })
  afterAll(async () => {
    await sink?.stop()
    if (mailDir) rmSync(mailDir, { recursive: true, force: true })
  })
  beforeEach(() => {
    for (const f of readdirSync(mailDir)) rmSync(path.join(mailDir, f))
  })

  const run = (smtpUrl = sink.url): NotifyRun => ({
    settings: {
      ...notificationSettings({
        env: { SMTP_URL: smtpUrl, NOTIFY_LINK_BASE_URL: 'http://desk.test' },
        production: false,
      }),
      claimLeaseMs: 60_000,
    },
    production: false,
    db: t.db,
    workerId: 'test-worker',
  })
  const mails = () => readMailDir(mailDir)
  /**
   * n confirmed orders of a requester (the staff user), committed
   * together and dispatched: their email rows, oldest event first
   */
  const confirmedEmails = async (n: number, requestedBy = u.staff.id) => {
    const orders = await Promise.all(
      Array.from({ length: n }, () => insertOrder(t.db, { requestedBy, status: 'submitted' })),
    )
    await t.db.transaction((tx) =>
      markOrdersConfirmed(tx, {
        orders: orders.map((o) => ({ orderId: o.id, txHash: `0x${'ab'.repeat(32)}`, blockNumber: 1n })),
      }),
    )
    await dispatchNotificationBatch(t.db, { limit: 100, email: true, lanes: 2, actor: 'test-worker' })
    const rows = await t.db
      .select({ id: emailDeliveries.id, orderId: notificationEvents.orderId })
      .from(emailDeliveries)
      .innerJoin(notificationEvents, eq(notificationEvents.id, emailDeliveries.eventId))
      .where(
        inArray(
          notificationEvents.orderId,
          orders.map((o) => o.id),
        ),
      )
      .orderBy(notificationEvents.createdAt, notificationEvents.id)
    return { ids: rows.map((r) => r.id), orderIds: rows.map((r) => r.orderId) }
  }
  const rowsOf = (ids: string[]) => t.db.select().from(emailDeliveries).where(inArray(emailDeliveries.id, ids))

  it('three events to one address: one digest listing the three orders, every row sent with its Message-ID; again, nothing is sent', async () => {
    const { ids, orderIds } = await confirmedEmails(3)
    const result = await sendNotificationEmail(run(), { emailIds: ids, attempt: 1, maxAttempts: 5 })
    expect(result).toMatchObject({ outcome: 'sent', events: 3 })
    const [mail, ...more] = mails()
    expect(more).toHaveLength(0)
    expect(mail).toContain(`To: ${u.staff.email}`)
    expect(mail).toMatch(/Subject: \[mintdesk\] 3 of your mints are confirmed/)
    for (const orderId of orderIds) expect(mail).toContain(`http://desk.test/mints/${orderId}`)
    expect(mail).toMatch(/Mintdesk-Event-Ids: evt_/i)
    const rows = await rowsOf(ids)
    expect(rows.map((r) => [r.status, r.attempts, r.claimToken])).toEqual(ids.map(() => ['sent', 1, null]))
    expect(new Set(rows.map((r) => r.messageId))).toEqual(new Set([result.outcome === 'sent' ? result.messageId : '']))

    expect(await sendNotificationEmail(run(), { emailIds: ids, attempt: 2, maxAttempts: 5 })).toEqual({
      outcome: 'finished',
      events: 3,
    })
    expect(mails()).toHaveLength(1)
  })

  it("one event: the order's own email, as before the digest", async () => {
    const { ids, orderIds } = await confirmedEmails(1)
    await sendNotificationEmail(run(), { emailIds: ids, attempt: 1, maxAttempts: 5 })
    const [mail] = mails()
    // the subject names the order by its short id, and the recipient (no label: its short address)
    expect(mail).toContain(
      `Subject: [mintdesk] Your mint of 401.084 oz to 0x7099…79C8 is confirmed (order ${orderIds[0]?.slice(0, 8)})`,
    )
    expect(mail).toContain(`http://desk.test/mints/${orderIds[0]}`)
    expect(mail).toMatch(/Mintdesk-Event-Id: evt_/i)
  })

  it('rows another attempt holds: nothing is sent, the attempt fails to be retried after the lease', async () => {
    const { ids } = await confirmedEmails(2)
    await claimEmails(t.db, { ids, leaseMs: 60_000 })
    await expect(sendNotificationEmail(run(), { emailIds: ids, attempt: 2, maxAttempts: 5 })).rejects.toBeInstanceOf(
      NotificationClaimedError,
    )
    expect(mails()).toHaveLength(0)
    expect((await rowsOf(ids)).every((r) => r.status === 'pending')).toBe(true)
  })

  it('an SMTP server that cannot be reached: the claims are released with the error; at the last attempt the rows are dead', async () => {
    const { ids } = await confirmedEmails(2)
    const closed = 'smtp://127.0.0.1:9'
    await expect(
      sendNotificationEmail(run(closed), { emailIds: ids, attempt: 1, maxAttempts: 2 }),
    ).rejects.toBeInstanceOf(EmailSendFailedError)
    let rows = await rowsOf(ids)
    expect(rows.map((r) => [r.status, r.claimToken, r.attempts])).toEqual(ids.map(() => ['pending', null, 1]))
    expect(rows.every((r) => (r.lastError ?? '').length > 0)).toBe(true)
    await expect(
      sendNotificationEmail(run(closed), { emailIds: ids, attempt: 2, maxAttempts: 2 }),
    ).rejects.toBeInstanceOf(EmailSendFailedError)
    rows = await rowsOf(ids)
    expect(rows.map((r) => r.status)).toEqual(['dead', 'dead'])
    expect(mails()).toHaveLength(0)
  })

  it('a digest sent again after its completion was lost (a crash after SMTP): a late duplicate with the same Message-ID', async () => {
    const { ids } = await confirmedEmails(4)
    const first = await sendNotificationEmail(run(), { emailIds: ids, attempt: 1, maxAttempts: 5 })
    // as if the worker had died between the SMTP answer and the rows' completion, its lease over
    await t.db.execute(
      sql`update email_deliveries set status = 'pending', message_id = null, sent_at = null where id = any(${uuidArraySql(ids)})`,
    )
    const again = await sendNotificationEmail(run(), { emailIds: ids, attempt: 2, maxAttempts: 5 })
    expect(again).toEqual(first)
    // headers unfolded (a long header goes on over lines that start with a space)
    const messageIds = mails().map((m) => /^Message-ID: (.+)$/im.exec(m.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim())
    expect(messageIds).toEqual([
      first.outcome === 'sent' ? first.messageId : 'not sent',
      first.outcome === 'sent' ? first.messageId : 'not sent',
    ])
  })

  it('rows of two addresses in one job (never planned so): nothing is sent, the claims go back, the attempt fails for good', async () => {
    const a = await confirmedEmails(1)
    const b = await confirmedEmails(1, u.otherStaff.id)
    const ids = [...a.ids, ...b.ids]
    await expect(sendNotificationEmail(run(), { emailIds: ids, attempt: 1, maxAttempts: 5 })).rejects.toBeInstanceOf(
      PermanentJobError,
    )
    expect(mails()).toHaveLength(0)
    expect((await rowsOf(ids)).map((r) => [r.status, r.claimToken, r.claimedUntil])).toEqual([
      ['pending', null, null],
      ['pending', null, null],
    ])
  })
})
