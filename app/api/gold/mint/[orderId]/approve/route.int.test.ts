import { sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { devKey } from '@/lib/keys/devKeys'
import { signingKeyText } from '@/lib/web/approvals/signingKeyText'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey, signOrderIntent } from '@/tests/helpers/approvals'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { allowRecipients } from '@/tests/helpers/recipients'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'

// POST /api/gold/mint/{orderId}/approve and /reject through the real routes, the real
// wrapper, a real database as the web's role and a real chain with GoldMinter (the dev setup):
// every order waits for approver signatures. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  mint: typeof import('../../route')
  one: typeof import('../route')
  approve: typeof import('./route')
  reject: typeof import('../reject/route')
  approval: typeof import('../approval/route')
  signingKey: typeof import('@/app/api/me/signing-key/route')
}

let t: TestDatabase
let u: TestUsers
let approver: SessionUser
let r: Routes
let route: RouteTest
let serial = 0
let chain: ChainFixture

beforeAll(async () => {
  chain = await startChainFixture()
  // the web's view of the chain (lib/web/webProcess.ts getMinterReader)
  process.env.RPC_URL = chain.rpcUrl
  process.env.CHAIN_ID = String(chain.chainId)
  process.env.MINTER_ADDRESS = chain.minterAddress
  route = await startRouteTest()
  t = route.t
  u = route.u
  approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
  await allowRecipients(t.db, [TEST_RECIPIENT])
  // approver 10 is the approver's key, approver 11 the admin's: both approvers on chain
  await bindDevKey(t.db, { userId: approver.id, key: devKey('approver') })
  await bindDevKey(t.db, { userId: u.admin.id, key: devKey('approver2') })
  r = {
    mint: await import('../../route'),
    one: await import('../route'),
    approve: await import('./route'),
    reject: await import('../reject/route'),
    approval: await import('../approval/route'),
    signingKey: await import('@/app/api/me/signing-key/route'),
  }
})

afterAll(async () => {
  await route?.close()
  await chain?.stop()
})

/** An order requested through POST /api/gold/mint by `by`: 202 awaiting_approval. */
async function requestMint(by: SessionUser): Promise<string> {
  const request = buildMintRequest({ bars: [{ serial: `RT-${++serial}` }] })
  await stockBarsOf(t.db, request)
  signInAs(by)
  const res = await r.mint.POST(routeRequest('/api/gold/mint', { method: 'POST', body: request }))
  const body = (await res.json()) as { orderId: string; status: string; jobId?: string }
  expect(res.status).toBe(202)
  expect(body.status).toBe('awaiting_approval')
  expect(body.jobId).toBeUndefined()
  return body.orderId
}

async function decide(
  kind: 'approve' | 'reject',
  orderId: string,
  p: { body?: unknown; origin?: string; key?: ReturnType<typeof devKey> } = {},
): Promise<Response> {
  const handler = kind === 'approve' ? r.approve.POST : r.reject.POST
  // an approval signs the order's intent with the approver's key (10) unless told otherwise
  const signed = async () => {
    const signature = await signOrderIntent(t.db, {
      orderId,
      key: p.key ?? devKey('approver'),
      domain: { chainId: chain.chainId, verifyingContract: chain.minterAddress },
    }).catch(() => `0x${'11'.repeat(65)}`)
    return { signature }
  }
  const body =
    p.body !== undefined ? p.body : kind === 'reject' ? { reason: 'not backed by the receipt' } : await signed()
  return handler(
    routeRequest(`/api/gold/mint/${orderId}/${kind}`, { method: 'POST', body, origin: p.origin }),
    routeParams({ orderId }),
  )
}

const jobCount = async (orderId: string) =>
  (
    await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where key = ${`mint_send:${orderId}`}`,
    )
  )[0]?.n

describe('POST /api/gold/mint/{orderId}/approve', () => {
  it('200 with the order (pending, the decision, the timeline) for an approver; the job gets MAX_ATTEMPTS (5)', async () => {
    const orderId = await requestMint(u.staff)
    signInAs(approver)
    const res = await decide('approve', orderId)
    expect(res.status).toBe(200)
    const order = (await res.json()) as Record<string, unknown>
    expect(order).toMatchObject({
      orderId,
      status: 'pending',
      requestedBy: u.staff.email,
      decision: { outcome: 'approved', by: approver.email, reason: null },
      timeline: [{ event: 'approval_requested' }, { event: 'signed' }, { event: 'approved' }, { event: 'enqueued' }],
    })
    const rows = await t.db.execute<{ max_attempts: number }>(
      sql`select max_attempts from graphile_worker.jobs where key = ${`mint_send:${orderId}`}`,
    )
    expect(rows.map((row) => row.max_attempts)).toEqual([5])
    // the requester sees the decision on their order
    signInAs(u.staff)
    const mine = await r.one.GET(routeRequest(`/api/gold/mint/${orderId}`), routeParams({ orderId }))
    expect(await mine.json()).toMatchObject({ decision: { outcome: 'approved', by: approver.email } })
  })

  it("staff cannot approve or reject at all (403 forbidden), not even others' orders", async () => {
    const orderId = await requestMint(u.otherStaff)
    signInAs(u.staff)
    expect(await errorOf(await decide('approve', orderId))).toMatchObject({ status: 403, code: 'forbidden' })
    expect(await errorOf(await decide('reject', orderId))).toMatchObject({ status: 403, code: 'forbidden' })
    expect(await jobCount(orderId)).toBe(0)
  })

  it('an admin approving or rejecting their own request: 403 self_approval; an approver then may', async () => {
    const orderId = await requestMint(u.admin)
    signInAs(u.admin)
    expect(await errorOf(await decide('approve', orderId))).toMatchObject({ status: 403, code: 'self_approval' })
    expect(await errorOf(await decide('reject', orderId))).toMatchObject({ status: 403, code: 'self_approval' })
    expect(await jobCount(orderId)).toBe(0)
    signInAs(approver)
    expect((await decide('approve', orderId)).status).toBe(200)
  })

  it("an approver's own request (written around the API, approvers may not request): 403 self_approval", async () => {
    // POST /api/gold/mint refuses an approver...
    signInAs(approver)
    const refused = await r.mint.POST(routeRequest('/api/gold/mint', { method: 'POST', body: '{}' }))
    expect(await errorOf(refused)).toMatchObject({ status: 403, code: 'forbidden' })
    // ...so the row is written directly, as a compromised web could
    const { createMintOrder } = await import('@/lib/web/mint/createMintOrder')
    const request = buildMintRequest({ bars: [{ serial: `RT-${++serial}` }] })
    await stockBarsOf(t.db, request)
    const { orderId } = await createMintOrder(t.db, {
      session: intakeSession(approver),
      request,
      maxAttempts: 5,
    })
    expect(await errorOf(await decide('approve', orderId))).toMatchObject({ status: 403, code: 'self_approval' })
    expect(await errorOf(await decide('reject', orderId))).toMatchObject({ status: 403, code: 'self_approval' })
  })

  it('409 not_awaiting_approval the second time; 404 for an unknown or malformed id; 401 without a session; 403 cross-origin', async () => {
    const orderId = await requestMint(u.staff)
    signInAs(approver)
    expect((await decide('approve', orderId)).status).toBe(200)
    expect(await errorOf(await decide('approve', orderId))).toMatchObject({
      status: 409,
      code: 'not_awaiting_approval',
    })
    expect(await errorOf(await decide('reject', orderId))).toMatchObject({ status: 409, code: 'not_awaiting_approval' })
    expect(await errorOf(await decide('approve', '00000000-0000-4000-8000-000000000000'))).toMatchObject({
      status: 404,
      code: 'not_found',
    })
    expect(await errorOf(await decide('approve', 'nope'))).toMatchObject({ status: 404, code: 'not_found' })
    signInAs(null)
    expect(await errorOf(await decide('approve', orderId))).toMatchObject({ status: 401, code: 'unauthenticated' })
    const other = await requestMint(u.staff)
    signInAs(approver)
    expect(await errorOf(await decide('approve', other, { origin: 'https://evil.example' }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    })
    expect(await jobCount(other)).toBe(0)
  })
})

describe('POST /api/gold/mint/{orderId}/reject', () => {
  it('200 with the order (rejected, who and why); the requester sees the decision; its bars are free', async () => {
    const orderId = await requestMint(u.staff)
    signInAs(u.admin)
    const res = await decide('reject', orderId, { body: { reason: 'receipt VR-2026-000123 is for another vault' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      status: 'rejected',
      decision: { outcome: 'rejected', by: u.admin.email, reason: 'receipt VR-2026-000123 is for another vault' },
    })
    signInAs(u.staff)
    const list = (await (await r.mint.GET(routeRequest(`/api/gold/mint?status=rejected`))).json()) as {
      items: { orderId: string }[]
    }
    expect(list.items.map((i) => i.orderId)).toContain(orderId)
    const held = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from vault_bars where order_id = ${orderId}::uuid`,
    )
    expect(held[0]?.n).toBe(0)
  })

  it('422 validation_failed without a reason, with an empty one or one over 500 characters; 415 without JSON', async () => {
    const orderId = await requestMint(u.staff)
    signInAs(approver)
    for (const body of [{}, { reason: '' }, { reason: 'x'.repeat(501) }, { reason: 42 }]) {
      expect(await errorOf(await decide('reject', orderId, { body }))).toMatchObject({
        status: 422,
        code: 'validation_failed',
        issues: [{ path: 'reason' }],
      })
    }
    const noJson = await r.reject.POST(
      routeRequest(`/api/gold/mint/${orderId}/reject`, { method: 'POST', type: 'text/plain', body: 'no' }),
      routeParams({ orderId }),
    )
    expect(noJson.status).toBe(415)
  })
})

describe('approvers read every order', () => {
  it("GET /api/gold/mint lists every order for an approver (status=awaiting_approval: the queue); GET one of another user's", async () => {
    const orderId = await requestMint(u.otherStaff)
    signInAs(approver)
    const list = (await (
      await r.mint.GET(routeRequest(`/api/gold/mint?status=awaiting_approval&limit=100`))
    ).json()) as {
      items: { orderId: string; status: string }[]
    }
    expect(list.items.map((i) => i.orderId)).toContain(orderId)
    expect(list.items.every((i) => i.status === 'awaiting_approval')).toBe(true)
    const one = await r.one.GET(routeRequest(`/api/gold/mint/${orderId}`), routeParams({ orderId }))
    expect(one.status).toBe(200)
    // staff still see only their own
    signInAs(u.staff)
    const theirs = await r.one.GET(routeRequest(`/api/gold/mint/${orderId}`), routeParams({ orderId }))
    expect(theirs.status).toBe(404)
  })
})

describe('GET /api/gold/mint/{orderId}/approval and /api/me/signing-key', () => {
  it('answers the typed data with decimal strings, the required count read from the chain, and the signatures so far', async () => {
    const orderId = await requestMint(u.staff)
    signInAs(approver)
    const res = await r.approval.GET(routeRequest(`/api/gold/mint/${orderId}/approval`), routeParams({ orderId }))
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      typedData: { domain: Record<string, string>; primaryType: string; message: Record<string, string> }
      required: number
      signatures: unknown[]
    }
    expect(body.typedData.domain).toEqual({
      name: 'GoldMinter',
      version: '1',
      chainId: String(chain.chainId),
      verifyingContract: chain.minterAddress,
    })
    expect(body.typedData.primaryType).toBe('MintIntent')
    expect(body.typedData.message.amount).toBe('401084000000000000000')
    expect(body.typedData.message.deadline).toMatch(/^\d+$/)
    expect(body.required).toBe(1)
    expect(body.signatures).toEqual([])
    signInAs(u.staff)
    expect(
      await errorOf(await r.approval.GET(routeRequest(`/api/gold/mint/${orderId}/approval`), routeParams({ orderId }))),
    ).toMatchObject({ status: 403 })
  })

  it('binds a key whose personal_sign of the text verifies (audited); refuses a wrong signature (422) and a key bound to another (409)', async () => {
    const user = { ...(await insertUser(t.db, 'approver')), role: 'approver' as const }
    signInAs(user)
    const challenge = (await (await r.signingKey.GET(routeRequest('/api/me/signing-key'))).json()) as { text: string }
    expect(challenge.text).toBe(signingKeyText(user))
    const key = privateKeyToAccount(generatePrivateKey())
    const bind = (body: unknown) => r.signingKey.POST(routeRequest('/api/me/signing-key', { method: 'POST', body }))
    const wrong = await key.signMessage({ message: 'something else' })
    expect(await errorOf(await bind({ address: key.address, signature: wrong }))).toMatchObject({
      status: 422,
      code: 'invalid_signature',
    })
    const signature = await key.signMessage({ message: challenge.text })
    const bound = await bind({ address: key.address, signature })
    expect(bound.status).toBe(200)
    expect(await bound.json()).toMatchObject({ address: key.address })
    const audited = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'user.signing_key_bind' and target_id = ${user.id}`,
    )
    expect(audited[0]?.n).toBe(1)
    // the approver's dev key is bound to the approver already
    signInAs(user)
    const taken = await devKey('approver').signMessage({ message: challenge.text })
    expect(await errorOf(await bind({ address: devKey('approver').address, signature: taken }))).toMatchObject({
      status: 409,
    })
  })
})
