import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { devKey } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { mintOrderSchema } from '@/lib/web/mint/responseSchemas'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey, signOrderIntent } from '@/tests/helpers/approvals'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { answerProblems, type ReceivedAnswer, readAnswer } from '@/tests/helpers/documentedAnswers'
import { signInAs } from '@/tests/helpers/fakeSession'
import { allowRecipients } from '@/tests/helpers/recipients'
import { type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser } from '@/tests/helpers/users'
import type { ApiOperation } from './ApiOperation'
import { apiOperations } from './apiOperations'
import { buildOpenApiDocument, type OpenApiDocument } from './buildOpenApiDocument'

// The real answers of the main routes (the real wrapper, a real database as the web's role, a real chain with
// GoldMinter) checked against the OpenAPI document's response schemas, errors included; then against copies of the
// document whose order schema drifted from what the route sends. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

let route: RouteTest
let chain: ChainFixture
let approver: SessionUser
let document: OpenApiDocument
let r: {
  mint: typeof import('@/app/api/gold/mint/route')
  one: typeof import('@/app/api/gold/mint/[orderId]/route')
  approval: typeof import('@/app/api/gold/mint/[orderId]/approval/route')
  approve: typeof import('@/app/api/gold/mint/[orderId]/approve/route')
  reserves: typeof import('@/app/api/reserves/route')
  lookup: typeof import('@/app/api/reserves/lookup/route')
  jobs: typeof import('@/app/api/admin/jobs/route')
  users: typeof import('@/app/api/admin/users/route')
  limits: typeof import('@/app/api/admin/limits/route')
  recipients: typeof import('@/app/api/admin/recipients/route')
  health: typeof import('@/app/api/health/route')
  ready: typeof import('@/app/api/ready/route')
  openapi: typeof import('@/app/api/openapi.json/route')
  barListTypedData: typeof import('@/app/api/vault/bar-lists/typed-data/route')
  changeTypedData: typeof import('@/app/api/admin/changes/typed-data/route')
  sqsRetry: typeof import('@/app/api/admin/dead-letters/sqs/retry/route')
  signingStop: typeof import('@/app/api/admin/signing/stop/route')
}
/** the answers received, for the drift checks */
const received: ReceivedAnswer[] = []

beforeAll(async () => {
  chain = await startChainFixture()
  process.env.RPC_URL = chain.rpcUrl
  process.env.CHAIN_ID = String(chain.chainId)
  process.env.MINTER_ADDRESS = chain.minterAddress
  // the reserves read the token's supply from the chain
  process.env.TOKEN_ADDRESS = chain.tokenAddress
  route = await startRouteTest()
  approver = { ...(await insertUser(route.t.db, 'approver')), role: 'approver' }
  await allowRecipients(route.t.db, [TEST_RECIPIENT])
  await bindDevKey(route.t.db, { userId: approver.id, key: devKey('approver') })
  r = {
    mint: await import('@/app/api/gold/mint/route'),
    one: await import('@/app/api/gold/mint/[orderId]/route'),
    approval: await import('@/app/api/gold/mint/[orderId]/approval/route'),
    approve: await import('@/app/api/gold/mint/[orderId]/approve/route'),
    reserves: await import('@/app/api/reserves/route'),
    lookup: await import('@/app/api/reserves/lookup/route'),
    jobs: await import('@/app/api/admin/jobs/route'),
    users: await import('@/app/api/admin/users/route'),
    limits: await import('@/app/api/admin/limits/route'),
    recipients: await import('@/app/api/admin/recipients/route'),
    health: await import('@/app/api/health/route'),
    ready: await import('@/app/api/ready/route'),
    openapi: await import('@/app/api/openapi.json/route'),
    barListTypedData: await import('@/app/api/vault/bar-lists/typed-data/route'),
    changeTypedData: await import('@/app/api/admin/changes/typed-data/route'),
    sqsRetry: await import('@/app/api/admin/dead-letters/sqs/retry/route'),
    signingStop: await import('@/app/api/admin/signing/stop/route'),
  }
  document = buildOpenApiDocument()
})

afterAll(async () => {
  await route?.close()
  await chain?.stop()
})

/** The answer's problems by the document; the answer is kept for the drift checks. */
async function checked(res: Response, op: Pick<ReceivedAnswer, 'method' | 'path'>, status: number) {
  const { answer, problems } = await readAnswer(document, res, op)
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  received.push(answer)
  return { body: answer.body, problems }
}

describe('real answers against the OpenAPI document', () => {
  let orderId = ''

  it('GET /api/openapi.json answers the document, to anyone', async () => {
    signInAs(null)
    const { body, problems } = await checked(
      await r.openapi.GET(routeRequest('/api/openapi.json')),
      { method: 'get', path: '/api/openapi.json' },
      200,
    )
    expect(problems).toEqual([])
    expect(body).toEqual(JSON.parse(JSON.stringify(document)))
  })

  it('mint intake (202), the order list, the order, its approval and the approve', async () => {
    const request = buildMintRequest({ bars: [{ serial: 'OA-1' }, { serial: 'OA-2' }] })
    await stockBarsOf(route.t.db, request)
    signInAs(route.u.staff)
    const intake = await checked(
      await r.mint.POST(routeRequest('/api/gold/mint', { method: 'POST', body: request })),
      { method: 'post', path: '/api/gold/mint' },
      202,
    )
    expect(intake.problems).toEqual([])
    orderId = (intake.body as { orderId: string }).orderId
    const list = await checked(
      await r.mint.GET(routeRequest('/api/gold/mint')),
      { method: 'get', path: '/api/gold/mint' },
      200,
    )
    expect(list.problems).toEqual([])
    expect((list.body as { items: unknown[] }).items).toHaveLength(1)
    const one = await checked(
      await r.one.GET(routeRequest(`/api/gold/mint/${orderId}`), routeParams({ orderId })),
      { method: 'get', path: '/api/gold/mint/{orderId}' },
      200,
    )
    expect(one.problems).toEqual([])

    signInAs(approver)
    const approval = await checked(
      await r.approval.GET(routeRequest(`/api/gold/mint/${orderId}/approval`), routeParams({ orderId })),
      { method: 'get', path: '/api/gold/mint/{orderId}/approval' },
      200,
    )
    expect(approval.problems).toEqual([])
    const signature = await signOrderIntent(route.t.db, {
      orderId,
      key: devKey('approver'),
      domain: { chainId: chain.chainId, verifyingContract: chain.minterAddress },
    })
    const approved = await checked(
      await r.approve.POST(
        routeRequest(`/api/gold/mint/${orderId}/approve`, { method: 'POST', body: { signature } }),
        routeParams({ orderId }),
      ),
      { method: 'post', path: '/api/gold/mint/{orderId}/approve' },
      200,
    )
    expect(approved.problems).toEqual([])
    expect(approved.body).toMatchObject({ status: 'pending', decision: { outcome: 'approved' } })
  })

  it("the admin job list, with the approved order's job", async () => {
    signInAs(route.u.admin)
    const jobs = await checked(
      await r.jobs.GET(routeRequest('/api/admin/jobs')),
      { method: 'get', path: '/api/admin/jobs' },
      200,
    )
    expect(jobs.problems).toEqual([])
    expect((jobs.body as { items: { orderId: string | null }[] }).items.map((j) => j.orderId)).toContain(orderId)
  })

  it('the admin users, limits and recipient allowlist', async () => {
    signInAs(route.u.admin)
    for (const [handler, path] of [
      [r.users.GET, '/api/admin/users'],
      [r.limits.GET, '/api/admin/limits'],
      [r.recipients.GET, '/api/admin/recipients'],
    ] as const) {
      const answer = await checked(await handler(routeRequest(path)), { method: 'get', path }, 200)
      expect(answer.problems, path).toEqual([])
    }
  })

  it('the public reserves, the lookup, health and readiness', async () => {
    signInAs(null)
    const reserves = await checked(
      await r.reserves.GET(routeRequest('/api/reserves')),
      { method: 'get', path: '/api/reserves' },
      200,
    )
    expect(reserves.problems).toEqual([])
    const lookup = await checked(
      await r.lookup.GET(routeRequest(`/api/reserves/lookup?address=${TEST_RECIPIENT}`)),
      { method: 'get', path: '/api/reserves/lookup' },
      200,
    )
    expect(lookup.problems).toEqual([])
    const health = await checked(
      await r.health.GET(routeRequest('/api/health')),
      { method: 'get', path: '/api/health' },
      200,
    )
    expect(health.problems).toEqual([])
    const ready = await checked(
      await r.ready.GET(routeRequest('/api/ready')),
      { method: 'get', path: '/api/ready' },
      200,
    )
    expect(ready.problems).toEqual([])
  })

  it('errors in the one shape: 401, 403, 404, 422 and 409 as documented', async () => {
    const order = { method: 'get', path: '/api/gold/mint/{orderId}' } as const
    signInAs(null)
    const anonymous = await checked(
      await r.mint.GET(routeRequest('/api/gold/mint')),
      { method: 'get', path: '/api/gold/mint' },
      401,
    )
    expect(anonymous.problems).toEqual([])
    signInAs(route.u.staff)
    const staff = await checked(
      await r.jobs.GET(routeRequest('/api/admin/jobs')),
      { method: 'get', path: '/api/admin/jobs' },
      403,
    )
    expect(staff.problems).toEqual([])
    const unknown = '00000000-0000-4000-8000-000000000000'
    const missing = await checked(
      await r.one.GET(routeRequest(`/api/gold/mint/${unknown}`), routeParams({ orderId: unknown })),
      order,
      404,
    )
    expect(missing.problems).toEqual([])
    const invalid = await checked(
      await r.mint.POST(routeRequest('/api/gold/mint', { method: 'POST', body: { to: 'nope' } })),
      { method: 'post', path: '/api/gold/mint' },
      422,
    )
    expect(invalid.problems).toEqual([])
    expect((invalid.body as { error: { issues: unknown[] } }).error.issues.length).toBeGreaterThan(0)
    signInAs(approver)
    const again = await checked(
      await r.approve.POST(
        routeRequest(`/api/gold/mint/${orderId}/approve`, {
          method: 'POST',
          body: { signature: `0x${'11'.repeat(65)}` },
        }),
        routeParams({ orderId }),
      ),
      { method: 'post', path: '/api/gold/mint/{orderId}/approve' },
      409,
    )
    expect(again.problems).toEqual([])
  })

  it("what an admin signs (a bar list's typed data, a change's), an SQS retry, and the stop switch, last", async () => {
    signInAs(route.u.admin)
    const list = {
      vault: 'OA-V',
      asOf: '2026-01-01T06:00:00Z',
      bars: [{ serial: 'OA-T1', refiner: 'Valcambi SA', year: 2025, grossOz: '400.000', fineness: '999.9' }],
    }
    const barList = await checked(
      await r.barListTypedData.POST(routeRequest('/api/vault/bar-lists/typed-data', { method: 'POST', body: list })),
      { method: 'post', path: '/api/vault/bar-lists/typed-data' },
      200,
    )
    expect(barList.problems).toEqual([])
    expect(barList.body).toMatchObject({ primaryType: 'BarList', domain: { chainId: String(chain.chainId) } })
    const change = await checked(
      await r.changeTypedData.POST(
        routeRequest('/api/admin/changes/typed-data', {
          method: 'POST',
          body: { kind: 'admin.threshold', params: { threshold: 2 } },
        }),
      ),
      { method: 'post', path: '/api/admin/changes/typed-data' },
      200,
    )
    expect(change.problems).toEqual([])
    const retry = await checked(
      await r.sqsRetry.POST(
        routeRequest('/api/admin/dead-letters/sqs/retry', {
          method: 'POST',
          body: { messageIds: ['no-such-message'] },
        }),
      ),
      { method: 'post', path: '/api/admin/dead-letters/sqs/retry' },
      200,
    )
    expect(retry.problems).toEqual([])
    expect(retry.body).toEqual({ retried: [], skipped: [{ messageId: 'no-such-message', reason: 'not_found' }] })
    const stop = await checked(
      await r.signingStop.POST(
        routeRequest('/api/admin/signing/stop', { method: 'POST', body: { reason: 'the answer check' } }),
      ),
      { method: 'post', path: '/api/admin/signing/stop' },
      200,
    )
    expect(stop.problems).toEqual([])
    expect(stop.body).toMatchObject({ stopped: true, reason: 'the answer check', auto: false })
  })

  it('fails on a planted drift: a copy of the order schema without a field the route sends, or with one it lacks', async () => {
    const orders = received.filter((a) => a.path === '/api/gold/mint/{orderId}' && a.status === 200)
    expect(orders).toHaveLength(1)
    const withOrderSchema = (schema: typeof mintOrderSchema | ReturnType<typeof mintOrderSchema.omit>) =>
      buildOpenApiDocument({
        operations: apiOperations.map(
          (op): ApiOperation =>
            op.method === 'get' && op.path === '/api/gold/mint/{orderId}'
              ? { ...op, success: { ...op.success, schema } }
              : op,
        ),
      })
    const answer = orders[0] as ReceivedAnswer
    expect(await answerProblems(document, answer)).toEqual([])
    const dropped = await answerProblems(withOrderSchema(mintOrderSchema.omit({ timeline: true })), answer)
    expect(dropped.join('\n')).toMatch(/timeline/)
    const added = await answerProblems(
      withOrderSchema(mintOrderSchema.extend({ confirmedAt: mintOrderSchema.shape.createdAt })),
      answer,
    )
    expect(added.join('\n')).toMatch(/confirmedAt/)
    // a status the route answers that the document does not list is a problem too
    expect(await answerProblems(document, { ...answer, status: 418 })).toEqual([
      'get /api/gold/mint/{orderId}: no response 418',
    ])
  })
})
