import { randomUUID } from 'node:crypto'
import { and, count, eq, sql } from 'drizzle-orm'
import { type Address, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { auditLog, chainTxs, complianceOperations, jobRecords, mintOrders, notificationEvents } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { buildJobSpec } from '@/lib/jobs/buildJobSpec'
import { complianceSendJobKey, mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { devKey } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type {
  ApiComplianceAccepted,
  ApiComplianceApproval,
  ApiComplianceBatchAccepted,
  ApiComplianceOperation,
  ApiComplianceState,
} from '@/lib/web/compliance/apiTypes'
import { toViemTypedData } from '@/lib/web/signing/toViemTypedData'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey } from '@/tests/helpers/approvals'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { createTestOrders } from '@/tests/helpers/orders'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// Compliance operations end to end (docs/decisions/056-compliance-operations.md): an admin asks through the real
// routes (the real wrapper, a real database as the web's role, a real chain), an approver signs with their key, a
// real worker sends it through the one pipeline and GoldMinter freezes or pauses. A paused token holds mints back
// (they wait, no attempt spent) until it is unpaused. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  state: typeof import('@/app/api/admin/compliance/route')
  freeze: typeof import('@/app/api/admin/compliance/freeze/route')
  unfreeze: typeof import('@/app/api/admin/compliance/unfreeze/route')
  pause: typeof import('@/app/api/admin/compliance/pause/route')
  unpause: typeof import('@/app/api/admin/compliance/unpause/route')
  approval: typeof import('@/app/api/admin/compliance/operations/[operationId]/approval/route')
  approve: typeof import('@/app/api/admin/compliance/operations/[operationId]/approve/route')
  reject: typeof import('@/app/api/admin/compliance/operations/[operationId]/reject/route')
}

describe('compliance operations through the API and the worker', () => {
  let route: RouteTest
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess
  let web: DbClient
  let r: Routes
  let admin: SessionUser
  let approver: SessionUser

  beforeAll(async () => {
    chain = await startChainFixture()
    process.env.RPC_URL = chain.rpcUrl
    process.env.CHAIN_ID = String(chain.chainId)
    process.env.MINTER_ADDRESS = chain.minterAddress
    route = await startRouteTest()
    t = route.t
    admin = route.u.admin
    approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
    // approver 10 of the dev mnemonic is an approver on chain; the admin holds no approver key
    await bindDevKey(t.db, { userId: approver.id, key: devKey('approver') })
    web = createDb({ url: t.roleUrl('web'), max: 2 })
    r = {
      state: await import('@/app/api/admin/compliance/route'),
      freeze: await import('@/app/api/admin/compliance/freeze/route'),
      unfreeze: await import('@/app/api/admin/compliance/unfreeze/route'),
      pause: await import('@/app/api/admin/compliance/pause/route'),
      unpause: await import('@/app/api/admin/compliance/unpause/route'),
      approval: await import('@/app/api/admin/compliance/operations/[operationId]/approval/route'),
      approve: await import('@/app/api/admin/compliance/operations/[operationId]/approve/route'),
      reject: await import('@/app/api/admin/compliance/operations/[operationId]/reject/route'),
    }
    worker = startWorkerProcess({ name: 'compliance', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  }, 120_000)
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await web?.close()
    await route?.close()
    await chain?.stop()
  })

  const post = (path: string, body: unknown) => routeRequest(path, { method: 'POST', body })
  const ask = async (
    action: 'freeze' | 'unfreeze' | 'pause' | 'unpause',
    body: unknown,
    as: SessionUser = admin,
  ): Promise<Response> => {
    signInAs(as)
    return r[action].POST(post(`/api/admin/compliance/${action}`, body))
  }
  const askOne = async (action: 'freeze' | 'unfreeze' | 'pause' | 'unpause', body: unknown): Promise<string> => {
    const res = await ask(action, body)
    expect(res.status, await res.clone().text()).toBe(202)
    const accepted = (await res.json()) as ApiComplianceAccepted
    expect(accepted.status).toBe('awaiting_approval')
    return accepted.operationId
  }
  const ctx = (operationId: string) => routeParams({ operationId })
  const approval = async (operationId: string, as: SessionUser = approver): Promise<ApiComplianceApproval> => {
    signInAs(as)
    const res = await r.approval.GET(
      routeRequest(`/api/admin/compliance/operations/${operationId}/approval`),
      ctx(operationId),
    )
    expect(res.status, await res.clone().text()).toBe(200)
    return (await res.json()) as ApiComplianceApproval
  }
  const approve = async (operationId: string, signature: string, as: SessionUser = approver): Promise<Response> => {
    signInAs(as)
    return r.approve.POST(
      post(`/api/admin/compliance/operations/${operationId}/approve`, { signature }),
      ctx(operationId),
    )
  }
  /** the approver's key signs the typed data GET .../approval gives, exactly as given; the approve route takes it */
  const sign = async (operationId: string): Promise<ApiComplianceOperation> => {
    const { typedData, required } = await approval(operationId)
    expect(required).toBe(1)
    const signature = await devKey('approver').signTypedData(toViemTypedData(typedData))
    const res = await approve(operationId, signature)
    expect(res.status, await res.clone().text()).toBe(200)
    return (await res.json()) as ApiComplianceOperation
  }
  const row = async (id: string) =>
    (await t.db.select().from(complianceOperations).where(eq(complianceOperations.id, id)))[0]
  const applied = (id: string) =>
    waitFor(async () => (await row(id))?.status === 'applied', { timeoutMs: 45_000, what: `operation ${id} applied` })
  const state = async (): Promise<ApiComplianceState> => {
    signInAs(approver)
    const res = await r.state.GET(routeRequest('/api/admin/compliance'))
    expect(res.status, await res.clone().text()).toBe(200)
    return (await res.json()) as ApiComplianceState
  }
  const token = () => ({ address: chain.tokenAddress, abi: goldTokenAbi }) as const
  const isFrozen = (account: Address) =>
    chain.publicClient.readContract({ ...token(), functionName: 'isFrozen', args: [account] })
  const paused = () => chain.publicClient.readContract({ ...token(), functionName: 'paused' })
  const rowCount = async () => (await t.db.select({ n: count() }).from(complianceOperations))[0]?.n ?? 0

  it('freezes an address once an approver signs, shows it frozen as the chain says, and unfreezes it', async () => {
    const account = privateKeyToAddress(generatePrivateKey())
    const operationId = await askOne('freeze', { address: account, reason: 'court order 17' })
    expect(await row(operationId)).toMatchObject({ status: 'awaiting_approval', account: account.toLowerCase() })

    // the requester never signs their own request, whatever the signature
    const self = await approve(operationId, `0x${'11'.repeat(65)}`, admin)
    expect(await errorOf(self)).toMatchObject({ status: 403, code: 'self_approval' })
    // a signature over another intent counts for nothing
    const { typedData } = await approval(operationId)
    const other = await devKey('approver').signTypedData(
      toViemTypedData({ ...typedData, message: { ...typedData.message, operationId: `0x${'0'.repeat(64)}` } }),
    )
    expect(await errorOf(await approve(operationId, other))).toMatchObject({ status: 422, code: 'invalid_signature' })
    expect(await row(operationId)).toMatchObject({ status: 'awaiting_approval' })

    const signed = await sign(operationId)
    expect(signed).toMatchObject({ operationId, status: 'pending', signatures: [{ user: approver.email }] })
    // signing again once it is pending
    const again = await approve(
      operationId,
      await devKey('approver').signTypedData(toViemTypedData((await approval(operationId)).typedData)),
    )
    expect(await errorOf(again)).toMatchObject({ status: 409, code: 'not_awaiting_approval' })

    await applied(operationId)
    expect(await isFrozen(account)).toBe(true)
    const [tx] = await t.db.select().from(chainTxs).where(eq(chainTxs.complianceOperationId, operationId))
    expect(tx).toMatchObject({ operation: 'compliance', kind: 'compliance', orderId: null })
    expect((await row(operationId))?.txHash).toBe(tx?.hash)
    const shown = await state()
    expect(shown.chain?.frozen.map((f) => f.address)).toContain(account)
    const listed = shown.operations.find((o) => o.operationId === operationId)
    expect(listed?.status).toBe('applied')
    expect(listed?.timeline.map((e) => e.event)).toEqual(
      expect.arrayContaining(['approval_requested', 'signed', 'approved', 'enqueued', 'broadcast']),
    )
    const events = await t.db
      .select({ type: notificationEvents.type })
      .from(notificationEvents)
      .where(eq(notificationEvents.complianceOperationId, operationId))
    expect(events.map((e) => e.type).sort()).toEqual(['compliance.applied', 'compliance.awaiting_approval'])
    const audit = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'compliance_operation'), eq(auditLog.targetId, operationId)))
      .orderBy(auditLog.id)
    expect(audit.map((a) => a.action)).toEqual(['compliance.request', 'compliance.sign', 'compliance.approve'])

    const unfreeze = await askOne('unfreeze', { address: account.toLowerCase(), reason: 'order lifted' })
    await sign(unfreeze)
    await applied(unfreeze)
    expect(await isFrozen(account)).toBe(false)
    expect((await state()).chain?.frozen.map((f) => f.address)).not.toContain(account)
  }, 120_000)

  it('freezes a batch: one operation per address sharing a batch id; a rejected one is never sent', async () => {
    const accounts = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]
    const res = await ask('freeze', { addresses: accounts, reason: 'sanctions list update' })
    expect(res.status).toBe(202)
    const batch = (await res.json()) as ApiComplianceBatchAccepted
    expect(batch.operations.map((o) => o.account)).toEqual(accounts)
    const [first, second] = batch.operations
    if (!first || !second) throw new Error('no batch')
    expect((await row(first.operationId))?.batchId).toBe(batch.batchId)
    await sign(first.operationId)
    signInAs(approver)
    const rejected = await r.reject.POST(
      post(`/api/admin/compliance/operations/${second.operationId}/reject`, { reason: 'wrong address' }),
      ctx(second.operationId),
    )
    expect(rejected.status).toBe(200)
    expect(await rejected.json()).toMatchObject({ status: 'rejected', rejectionReason: 'wrong address' })
    await applied(first.operationId)
    expect(await isFrozen(accounts[0] as Address)).toBe(true)
    expect(await isFrozen(accounts[1] as Address)).toBe(false)
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.complianceOperationId, second.operationId))).toEqual([])
  }, 120_000)

  it('pauses: a mint queued meanwhile waits (no attempt spent), a second pause is refused; unpaused, it mints once', async () => {
    const pause = await askOne('pause', { reason: 'incident: key rotation' })
    await sign(pause)
    await applied(pause)
    expect(await paused()).toBe(true)
    expect((await state()).chain?.paused).toBe(true)

    const to = privateKeyToAddress(generatePrivateKey())
    const [order] = await createTestOrders(t.db, { count: 1, to: [to] })
    if (!order) throw new Error('no order')
    // it is looked at again and again, and waits: pending, its job alive with no attempt spent, nothing signed
    await waitFor(
      async () =>
        (
          await t.db.execute<{ n: number }>(sql`
          select count(*)::int as n from job_events where order_id = ${order.id}::uuid and detail like 'token_paused%'`)
        )[0]?.n >= 2,
      { timeoutMs: 30_000, what: 'the mint waiting for the unpause' },
    )
    expect((await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status).toBe('pending')
    const [job] = await t.db.execute<{ attempts: number }>(
      sql`select attempts from graphile_worker._private_jobs where key = ${mintSendJobKey(order.id)}`,
    )
    expect(job?.attempts ?? 0).toBe(0)
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))).toEqual([])

    // a second pause reverts PauseUnchanged: refused for good, readable by admins, nothing sent
    const twice = await askOne('pause', { reason: 'pressed twice' })
    await sign(twice)
    await waitFor(async () => (await row(twice))?.status === 'failed', { timeoutMs: 30_000, what: 'second pause' })
    expect((await row(twice))?.failureReason).toMatch(/already paused/)
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.complianceOperationId, twice))).toEqual([])

    const unpause = await askOne('unpause', { reason: 'incident over' })
    await sign(unpause)
    await applied(unpause)
    expect(await paused()).toBe(false)
    await waitFor(
      async () => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status === 'confirmed',
      { timeoutMs: 45_000, what: 'the mint confirmed after the unpause' },
    )
    expect(await chain.publicClient.readContract({ ...token(), functionName: 'balanceOf', args: [to] })).toBe(
      order.amountWei,
    )
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))).toHaveLength(1)
    const dead = await t.db
      .select()
      .from(jobRecords)
      .where(and(eq(jobRecords.orderId, order.id), eq(jobRecords.state, 'dead')))
    expect(dead).toEqual([])
  }, 180_000)

  it('as the web database role: an operation set pending with no signature, its job added, never reaches the chain', async () => {
    const target = privateKeyToAddress(generatePrivateKey())
    const id = randomUUID()
    await web.db.insert(complianceOperations).values({
      id,
      action: 'freeze',
      account: target.toLowerCase(),
      reason: 'forged',
      status: 'pending',
      requestedBy: admin.id,
      intentDeadline: new Date(Date.now() + 3_600_000),
    })
    const spec = buildJobSpec({
      task: TASK.complianceSend,
      payload: { operationId: id },
      jobKey: complianceSendJobKey(id),
      maxAttempts: 5,
      orderId: id,
      actor: 'attacker',
    })
    await web.db.execute(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)`)
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(jobRecords)
            .where(and(eq(jobRecords.orderId, id), eq(jobRecords.task, TASK.complianceSend)))
        )[0]?.state === 'dead',
      { timeoutMs: 30_000, what: 'compliance_send dead' },
    )
    expect(await row(id)).toMatchObject({
      status: 'failed',
      failureReason: expect.stringMatching(/has 0 valid approver signatures of 1 required/),
    })
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.complianceOperationId, id))).toEqual([])
    expect(await isFrozen(target)).toBe(false)
  }, 60_000)

  it('refuses bad inputs with the error shape, writing nothing', async () => {
    const before = await rowCount()
    const good = privateKeyToAddress(generatePrivateKey())
    const cases: [action: 'freeze' | 'pause', body: unknown, path: string][] = [
      ['freeze', { address: 'not-an-address', reason: 'x' }, 'address'],
      ['freeze', { address: zeroAddress, reason: 'x' }, 'address'],
      ['freeze', { address: good, addresses: [good], reason: 'x' }, 'address'],
      ['freeze', { reason: 'x' }, 'address'],
      ['freeze', { addresses: [], reason: 'x' }, 'addresses'],
      ['freeze', { addresses: [good, good.toLowerCase()], reason: 'x' }, 'addresses'],
      [
        'freeze',
        { addresses: Array.from({ length: 101 }, () => privateKeyToAddress(generatePrivateKey())), reason: 'x' },
        'addresses',
      ],
      ['freeze', { address: good, reason: '' }, 'reason'],
      ['freeze', { address: good, reason: 'x'.repeat(501) }, 'reason'],
      ['pause', { reason: 'x', extra: true }, ''],
      ['pause', {}, 'reason'],
    ]
    for (const [action, body, path] of cases) {
      const res = await ask(action, body)
      const error = await errorOf(res)
      expect(error, JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 422, code: 'validation_failed' })
      expect(error.issues?.some((i) => i.path === path || (path === '' && i.path !== undefined))).toBe(true)
    }
    const malformed = await ask('freeze', '{not json')
    expect(await errorOf(malformed)).toMatchObject({ status: 400, code: 'malformed_json' })
    const staff = await ask('pause', { reason: 'staff tries' }, route.u.staff)
    expect(await errorOf(staff)).toMatchObject({ status: 403, code: 'forbidden' })
    signInAs(approver)
    const unknown = randomUUID()
    const res = await r.approve.POST(
      post(`/api/admin/compliance/operations/${unknown}/approve`, { signature: `0x${'11'.repeat(65)}` }),
      ctx(unknown),
    )
    expect(await errorOf(res)).toMatchObject({ status: 404, code: 'not_found' })
    expect(await rowCount()).toBe(before)
  }, 60_000)
})
