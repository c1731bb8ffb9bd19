import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, signers } from '@/db/schema/chain'
import { mintOrders } from '@/db/schema/mint'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { NotFoundError } from '@/lib/web/errors'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { markOrderFailed } from '@/worker/db/markOrderFailed'
import { createMintOrder } from './createMintOrder'
import { getMintOrderOrThrow } from './getMintOrderOrThrow'

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

/** The request, its bars first put on the vault's bar list. */
async function stocked(request: ReturnType<typeof buildMintRequest>) {
  await stockBarsOf(t.db, request)
  return request
}

describe('getMintOrderOrThrow', () => {
  it('shows a new order: amount, proof as submitted (bars in order), no tx yet, the approval_requested event', async () => {
    const request = buildMintRequest({
      bars: [
        { serial: 'G-B', refiner: 'PAMP SA', grossOz: '400', fineness: '999.9' },
        { serial: 'G-A', refiner: 'Valcambi SA', grossOz: '32.150', fineness: '999.99', year: 2019 },
      ],
    })
    await stockBarsOf(t.db, request)
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      request,
      maxAttempts: 5,
    })
    const order = await getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.staff })
    expect(order).toEqual({
      orderId: accepted.orderId,
      status: 'awaiting_approval',
      to: request.to,
      amount: '432.109',
      requestedBy: u.staff.email,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      decision: null,
      outcome: null,
      tx: null,
      vaultProof: {
        vault: 'LDN-1',
        receiptRef: 'VR-2026-000123',
        documentSha256: request.vaultProof.documentSha256,
        bars: [
          { serial: 'G-B', refiner: 'PAMP SA', year: 2025, grossOz: '400.000', fineness: '999.9', fineOz: '399.960' },
          {
            serial: 'G-A',
            refiner: 'Valcambi SA',
            year: 2019,
            grossOz: '32.150',
            fineness: '999.99',
            fineOz: '32.149',
          },
        ],
      },
      timeline: [
        {
          at: expect.any(String),
          event: 'approval_requested',
          detail: `mint 432.109 oz to ${request.to}: awaits approver signatures`,
        },
      ],
    })
  })

  it('shows the transaction the worker stored, and a confirmation count from the timeline', async () => {
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      request: await stocked(buildMintRequest({ bars: [{ serial: 'G-TX' }] })),
      maxAttempts: 5,
    })
    const signer = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
    await t.db.insert(signers).values({ address: signer, kmsKeyId: 'key-1', chainId: 31337, nextNonce: 42n })
    const hash = `0x${'ab'.repeat(32)}`
    await t.db.insert(chainTxs).values({
      hash,
      signerAddress: signer,
      nonce: 41n,
      orderId: accepted.orderId,
      kind: 'mint',
      rawTx: '0x02',
      maxFeePerGas: '1',
      maxPriorityFeePerGas: '1',
      gasLimit: '100000',
    })
    await t.db
      .update(mintOrders)
      .set({ status: 'submitted', signerAddress: signer, nonce: 41n })
      .where(eq(mintOrders.id, accepted.orderId))

    const submitted = await getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.staff })
    expect(submitted.status).toBe('submitted')
    expect(submitted.tx).toEqual({ hash, nonce: 41, blockNumber: null, confirmations: null })

    await t.db
      .update(mintOrders)
      .set({ status: 'confirmed', txHash: hash, blockNumber: 1234n })
      .where(eq(mintOrders.id, accepted.orderId))
    // as order_confirm writes it: decimal strings in data; an older event about another block is ignored
    await recordJobEvent(t.db, {
      event: 'mined',
      task: 'order_confirm',
      orderId: accepted.orderId,
      detail: 'block 1200',
      data: { blockNumber: '1200', confirmations: '9' },
    })
    await recordJobEvent(t.db, {
      event: 'confirmed',
      task: 'order_confirm',
      orderId: accepted.orderId,
      detail: 'block 1234',
      data: { hash, blockNumber: '1234', confirmations: '3' },
    })
    const confirmed = await getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.admin })
    expect(confirmed.tx).toEqual({ hash, nonce: 41, blockNumber: 1234, confirmations: 3 })
    expect(confirmed.timeline.map((e) => e.event)).toEqual(['approval_requested', 'mined', 'confirmed'])
    expect(confirmed.timeline[2]?.detail).toBe('block 1234')
  })

  it("staff cannot read another user's order (404), approvers and admins can", async () => {
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.otherStaff),
      request: await stocked(buildMintRequest({ bars: [{ serial: 'G-OTHER' }] })),
      maxAttempts: 5,
    })
    await expect(getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.staff })).rejects.toBeInstanceOf(
      NotFoundError,
    )
    await expect(getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.otherStaff })).resolves.toMatchObject({
      requestedBy: u.otherStaff.email,
    })
    await expect(getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.admin })).resolves.toMatchObject({
      orderId: accepted.orderId,
    })
    const approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' as const }
    await expect(getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: approver })).resolves.toMatchObject({
      orderId: accepted.orderId,
    })
  })

  it.each(['not-a-uuid', '', "1' or '1'='1", '00000000-0000-0000-0000-00000000000g', '0b9f'])(
    'a malformed id is a 404, not a 500: %j',
    async (orderId) => {
      await expect(getMintOrderOrThrow(t.db, { orderId, user: u.admin })).rejects.toBeInstanceOf(NotFoundError)
    },
  )

  it("a failed order's outcome: the code of its mint.failed event, never the admin's text", async () => {
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      request: await stocked(buildMintRequest({ bars: [{ serial: 'G-FAIL' }] })),
      maxAttempts: 5,
    })
    await t.db.update(mintOrders).set({ status: 'pending' }).where(eq(mintOrders.id, accepted.orderId))
    await t.db.transaction((tx) =>
      markOrderFailed(tx, {
        orderId: accepted.orderId,
        reason: 'RecipientNotAllowed(0x7099) at http://rpc.internal/key',
        code: 'attempts_exhausted',
        lastError: 'recipient_not_allowed',
        from: ['pending'],
      }),
    )
    const order = await getMintOrderOrThrow(t.db, { orderId: accepted.orderId, user: u.staff })
    expect(order.status).toBe('failed')
    expect(order.outcome).toMatchObject({
      status: 'failed',
      reason: 'attempts_exhausted',
      lastError: 'recipient_not_allowed',
      text: 'Every attempt failed (the last: the recipient is not on the allowlist).',
      by: null,
    })
    expect(JSON.stringify(order.outcome)).not.toContain('rpc.internal')
  })

  it('an unknown id is a 404', async () => {
    await expect(getMintOrderOrThrow(t.db, { orderId: crypto.randomUUID(), user: u.admin })).rejects.toMatchObject({
      code: 'not_found',
      message: 'Order not found.',
    })
  })
})
