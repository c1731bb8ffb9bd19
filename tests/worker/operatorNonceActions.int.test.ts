import { and, asc, eq, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { auditLog, chainTxs, controlChanges, jobRecords, mintOrders, signerNonces, users } from '@/db/schema'
import { buildControlChangeTypedData } from '@/lib/changes/controlChangeIntent'
import type { ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import { buildJobSpec } from '@/lib/jobs/buildJobSpec'
import { nonceCancelJobKey, TASK } from '@/lib/jobs/jobKeys'
import { devKey } from '@/lib/keys/devKeys'
import { createMinterReader, type MinterReader } from '@/lib/web/approvals/MinterReader'
import { confirmControlChange } from '@/lib/web/changes/confirmControlChange'
import { changeToSign } from '@/lib/web/changes/proposeOnChainChange'
import { proposeNonceCancel } from '@/lib/web/signers/proposeNonceCancel'
import { requestNonceSpeedUp } from '@/lib/web/signers/requestNonceSpeedUp'
import { requestSignerResync } from '@/lib/web/signers/requestSignerResync'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// A signer's pending nonce in an operator's hands (docs/decisions/064-operator-nonce-actions.md), against anvil with
// mining paused, a real worker and the local KMS: a speed-up mines at the chosen fees; a cancel needs a second
// admin's key, then a zero-value self-transfer takes the nonce and the mint never lands; a resync is a job. Every
// web call runs as the web's database role; as that role alone nobody makes the worker cancel.

type Admin = { id: string; email: string; key: ReturnType<typeof devKey> }

describe("an operator's actions on a pending nonce", () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess
  let web: DbClient
  let minter: MinterReader
  let admin: Admin
  let admin2: Admin
  const to = [privateKeyToAddress(generatePrivateKey())]
  const noCeiling = { maxFeePerGas: undefined, maxPriorityFeePerGas: undefined }
  /** every order minted so far, for verifyMints (it counts every Minted event) */
  const minted: TestOrder[] = []

  async function bindAdmin(email: string, name: 'admin' | 'admin2'): Promise<Admin> {
    const [u] = await t.db.insert(users).values({ email, name: email, role: 'admin' }).returning({ id: users.id })
    if (!u) throw new Error('no user')
    const key = devKey(name)
    await t.db.execute(sql`
      insert into user_signing_keys (address, user_id, binding_signature) values (${key.address.toLowerCase()}, ${u.id}::uuid, '0x')`)
    return { id: u.id, email, key }
  }
  const sign = (a: Admin, p: { changeId: string; change: ParsedOnChainChange; deadline: Date }) =>
    a.key.signTypedData(buildControlChangeTypedData(minter.domain, p))
  const order = async (id: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, id)))[0]
  const txsOf = (id: string) =>
    t.db.select().from(chainTxs).where(eq(chainTxs.orderId, id)).orderBy(asc(chainTxs.createdAt))
  const auditOf = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action))
  /** an order broadcast and waiting in the pool (mining paused) */
  async function stuckOrder(): Promise<{ order: TestOrder; signer: string; nonce: bigint }> {
    const [o] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await order(o.id))?.status === 'submitted', {
      timeoutMs: 30_000,
      what: `order submitted (log: ${worker.logFile})`,
    })
    const [tx] = await txsOf(o.id)
    if (!tx) throw new Error('no transaction')
    return { order: o, signer: tx.signerAddress, nonce: tx.nonce }
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'operator-as-web' })
    minter = createMinterReader({
      client: chain.publicClient,
      chainId: chain.chainId,
      minterAddress: chain.minterAddress,
    })
    admin = await bindAdmin('nonce-admin@mintdesk.test', 'admin')
    admin2 = await bindAdmin('nonce-admin2@mintdesk.test', 'admin2')
    // no automatic replacement during the test: the operator's are under test
    worker = startWorkerProcess({
      name: 'operator-nonces',
      env: workerEnv({
        databaseUrl: t.url,
        chain,
        env: { STUCK_AFTER_MS: '600000', NONCE_STALL_AFTER_MS: '600000', WORKER_CONCURRENCY: '2' },
      }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await chain?.testClient.setAutomine(true)
    await worker?.stop('SIGTERM')
    await web?.close()
    await chain?.stop()
    await t?.drop()
  })

  it('a speed-up re-signs the stuck mint at the chosen fees, audited; it mines at them, once', async () => {
    await chain.testClient.setAutomine(false)
    const { order: a, signer, nonce } = await stuckOrder()
    const [first] = await txsOf(a.id)
    if (!first) throw new Error('no transaction')
    const chosen = {
      maxFeePerGas: BigInt(first.maxFeePerGas) * 2n,
      maxPriorityFeePerGas: BigInt(first.maxPriorityFeePerGas) * 2n + 1n,
    }
    const base = { signerAddress: signer, nonce: Number(nonce), actor: admin, maxAttempts: 3 }
    // bad input writes nothing: under the replacement floor, above the ceiling, a nonce not pending
    const jobsBefore = (await t.db.select().from(jobRecords)).length
    await expect(
      requestNonceSpeedUp(web.db, { ...base, ...chosen, maxFeePerGas: BigInt(first.maxFeePerGas), ceiling: noCeiling }),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(
      requestNonceSpeedUp(web.db, {
        ...base,
        ...chosen,
        ceiling: { maxFeePerGas: 1n, maxPriorityFeePerGas: undefined },
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(
      requestNonceSpeedUp(web.db, { ...base, nonce: 999, ...chosen, ceiling: noCeiling }),
    ).rejects.toMatchObject({ code: 'not_found' })
    expect((await t.db.select().from(jobRecords)).length).toBe(jobsBefore)
    expect(await auditOf('nonce.speed_up')).toEqual([])

    const asked = await requestNonceSpeedUp(web.db, { ...base, ...chosen, ceiling: noCeiling })
    expect(asked).toMatchObject({ nonce: Number(nonce) })
    const [audit] = await auditOf('nonce.speed_up')
    expect(audit).toMatchObject({ actorEmail: admin.email, targetType: 'signer', targetId: signer })
    const replacement = await waitFor(async () => (await txsOf(a.id)).find((x) => x.kind === 'replacement'), {
      timeoutMs: 30_000,
      what: `the replacement (log: ${worker.logFile})`,
    })
    expect(BigInt(replacement.maxFeePerGas)).toBe(chosen.maxFeePerGas)
    expect(BigInt(replacement.maxPriorityFeePerGas)).toBe(chosen.maxPriorityFeePerGas)
    expect(replacement.nonce).toBe(nonce)

    await chain.testClient.setAutomine(true)
    await chain.testClient.mine({ blocks: 1 })
    await waitFor(async () => (await order(a.id))?.status === 'confirmed', { timeoutMs: 45_000, what: 'A confirmed' })
    const mined = (await txsOf(a.id)).filter((x) => x.minedBlock !== null)
    expect(mined.map((x) => x.hash)).toEqual([replacement.hash])
    const onChain = await chain.publicClient.getTransaction({ hash: replacement.hash as Hex })
    expect(onChain.maxFeePerGas).toBe(chosen.maxFeePerGas)
    expect(onChain.maxPriorityFeePerGas).toBe(chosen.maxPriorityFeePerGas)
    minted.push(a)
    await verifyMints({ db: t.db, chain, orders: minted })
  }, 120_000)

  it('a cancel waits for a second admin; as the web role alone it is refused; then a self-transfer fills the nonce and the mint never lands', async () => {
    await chain.testClient.setAutomine(false)
    const { order: b, signer, nonce } = await stuckOrder()
    const change: ParsedOnChainChange = {
      kind: 'nonce.cancel',
      params: { signerAddress: signer as Hex, nonce: Number(nonce) },
    }

    // the attacker with the web's login: a nonce.cancel written pending with its job, one admin's signature or none
    const forged = await changeToSign({ ...change, minter })
    await web.db.insert(controlChanges).values({
      id: forged.changeId,
      kind: 'nonce.cancel',
      params: change.params,
      status: 'pending',
      authorEmail: admin.email,
      authorId: admin.id,
      decidedById: admin2.id,
      decidedByEmail: admin2.email,
      decidedAt: new Date(),
      deadline: new Date(forged.deadline),
    })
    const spec = buildJobSpec({
      task: TASK.nonceCancel,
      payload: { changeId: forged.changeId },
      jobKey: nonceCancelJobKey(forged.changeId),
      maxAttempts: 3,
      orderId: forged.changeId,
      actor: 'attacker',
    })
    await web.db.execute(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)`)
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(jobRecords)
            .where(and(eq(jobRecords.orderId, forged.changeId), eq(jobRecords.task, TASK.nonceCancel)))
        )[0]?.state === 'dead',
      { timeoutMs: 30_000, what: 'the forged nonce_cancel dead' },
    )
    expect(await order(b.id)).toMatchObject({ status: 'submitted' })
    const atNonce = () =>
      t.db
        .select()
        .from(chainTxs)
        .where(and(eq(chainTxs.signerAddress, signer), eq(chainTxs.nonce, nonce)))
    expect((await atNonce()).filter((x) => x.kind === 'gap_fill')).toEqual([])
    await t.db
      .delete(controlChanges)
      .where(eq(controlChanges.id, forged.changeId))
      .catch(() => undefined)

    // the real cancel: proposed with the author's signature, confirmed with a second admin's
    const toSign = await changeToSign({ ...change, minter })
    const deadline = new Date(toSign.deadline)
    const proposed = await proposeNonceCancel(web.db, {
      signerAddress: signer,
      nonce: Number(nonce),
      body: {
        changeId: toSign.changeId,
        deadline: toSign.deadline,
        signature: await sign(admin, { changeId: toSign.changeId, change, deadline }),
      },
      author: admin,
      minter,
    })
    expect(proposed).toEqual({ changeId: toSign.changeId, status: 'awaiting_second_admin' })
    // nothing happens with the author's signature alone
    expect(await order(b.id)).toMatchObject({ status: 'submitted' })
    await expect(
      confirmControlChange(web.db, {
        changeId: toSign.changeId,
        confirmer: admin,
        context: {},
        onChain: {
          signature: await sign(admin, { changeId: toSign.changeId, change, deadline }),
          minter: () => minter,
          maxAttempts: 3,
        },
      }),
    ).rejects.toMatchObject({ code: 'self_approval' })
    const confirmed = await confirmControlChange(web.db, {
      changeId: toSign.changeId,
      confirmer: admin2,
      context: {},
      onChain: {
        signature: await sign(admin2, { changeId: toSign.changeId, change, deadline }),
        minter: () => minter,
        maxAttempts: 3,
      },
    })
    expect(confirmed).toMatchObject({ status: 'pending' })
    await waitFor(async () => (await order(b.id))?.status === 'cancelled', {
      timeoutMs: 30_000,
      what: `B cancelled by nonce_cancel (log: ${worker.logFile})`,
    })
    const fill = await waitFor(async () => (await atNonce()).find((x) => x.kind === 'gap_fill'), {
      timeoutMs: 30_000,
      what: 'the zero-value self-transfer signed',
    })
    await chain.testClient.setAutomine(true)
    await chain.testClient.mine({ blocks: 1 })
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(signerNonces)
            .where(and(eq(signerNonces.signerAddress, signer), eq(signerNonces.nonce, nonce)))
        )[0]?.state === 'mined',
      { timeoutMs: 30_000, what: 'the nonce mined' },
    )
    const fillTx = await chain.publicClient.getTransaction({ hash: fill.hash as Hex })
    expect(fillTx.to?.toLowerCase()).toBe(signer.toLowerCase())
    expect(fillTx.value).toBe(0n)
    expect((await chain.publicClient.getTransactionReceipt({ hash: fill.hash as Hex })).status).toBe('success')
    expect((await t.db.select().from(controlChanges).where(eq(controlChanges.id, toSign.changeId)))[0]).toMatchObject({
      status: 'applied',
    })
    expect((await auditOf('change.propose')).map((r) => r.targetId)).toContain(toSign.changeId)
    expect((await auditOf('change.confirm')).map((r) => r.targetId)).toContain(toSign.changeId)
    // the order ends cancelled, never minted; the next order mints behind the filled nonce
    const [c] = await createTestOrders(t.db, { count: 1, to })
    await waitFor(async () => (await order(c.id))?.status === 'confirmed', { timeoutMs: 45_000, what: 'C confirmed' })
    expect(await order(b.id)).toMatchObject({ status: 'cancelled' })
    minted.push(c)
    await verifyMints({ db: t.db, chain, orders: minted, unminted: [b] })
  }, 150_000)

  it('a resync adds the nonce_resync job with { signerAddress }, audited; an unknown signer writes nothing', async () => {
    const [signerRow] = await t.db.execute<{ address: string }>(sql`select address from signers limit 1`)
    if (!signerRow) throw new Error('no signer')
    await expect(
      requestSignerResync(web.db, {
        signerAddress: privateKeyToAddress(generatePrivateKey()),
        actor: admin,
      }),
    ).rejects.toMatchObject({ code: 'not_found' })
    expect(await auditOf('nonce.resync')).toEqual([])
    const { jobId } = await requestSignerResync(web.db, {
      signerAddress: signerRow.address,
      actor: admin,
    })
    const job = await t.db.execute<{ task_identifier: string; payload: unknown }>(
      sql`select t.identifier as task_identifier, j.payload from graphile_worker._private_jobs j
        join graphile_worker._private_tasks t on t.id = j.task_id where j.id = ${jobId}::bigint`,
    )
    expect(job[0]).toEqual({ task_identifier: TASK.nonceResync, payload: { signerAddress: signerRow.address } })
    expect(await auditOf('nonce.resync')).toMatchObject([
      { actorEmail: admin.email, targetType: 'signer', targetId: signerRow.address },
    ])
  })
})
