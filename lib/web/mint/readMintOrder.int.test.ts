import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getJobDetailOrThrow } from '@/lib/web/admin/getJobDetailOrThrow'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { createMintOrder } from './createMintOrder'
import { getMintOrderOrThrow } from './getMintOrderOrThrow'
import { readMintOrder } from './readMintOrder'

let t: TestDatabase
let u: TestUsers

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
})

afterAll(async () => {
  await t.drop()
})

describe('readMintOrder (the one reader of an order)', () => {
  it("reads an order with its bars in request order, fineness in the one format; a requester filter hides another user's order", async () => {
    const request = buildMintRequest({
      bars: [
        { serial: 'R-B', grossOz: '400', fineness: '999.00' },
        { serial: 'R-A', grossOz: '32.150', fineness: '999.90' },
      ],
    })
    await stockBarsOf(t.db, request)
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      request,
      maxAttempts: 5,
    })
    const order = await readMintOrder(t.db, { orderId: accepted.orderId })
    expect(order).toMatchObject({
      id: accepted.orderId,
      status: 'awaiting_approval',
      requestedByEmail: u.staff.email,
      nonce: null,
    })
    expect(order?.bars.map((b) => [b.serial, b.grossOz, b.fineness, b.fineOz])).toEqual([
      ['R-B', '400.000', '999.0', '399.600'],
      ['R-A', '32.150', '999.9', '32.146'],
    ])
    expect(await readMintOrder(t.db, { orderId: accepted.orderId, requestedBy: u.staff.id })).not.toBeNull()
    expect(await readMintOrder(t.db, { orderId: accepted.orderId, requestedBy: u.otherStaff.id })).toBeNull()
  })

  it("the staff's order page and the admin's job detail show the same amount and bars", async () => {
    const request = buildMintRequest({ bars: [{ serial: 'R-SAME', grossOz: '401.125', fineness: '995.00' }] })
    await stockBarsOf(t.db, request)
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      request,
      maxAttempts: 5,
    })
    const staffView = await getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.staff })
    // its mint_send job, as the approvals add it (lib/web/approvals/approveMintOrder.ts)
    const { jobId } = await t.db.transaction((tx) =>
      enqueueMintSend(tx, { transport: 'postgres', orderId: accepted.orderId, maxAttempts: 5, actor: 'test' }),
    )
    const adminView = await getJobDetailOrThrow(t.db, { jobId })
    expect(adminView.order?.amount).toBe(staffView.amount)
    expect(adminView.order?.vaultProof.bars).toEqual(staffView.vaultProof.bars)
    expect(staffView.vaultProof.bars[0]?.fineness).toBe('995.0')
  })
})
