import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { type Hex, hashTypedData, isAddressEqual } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { chainTxs, controlChanges, jobRecords, users } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { buildControlChangeTypedData } from '@/lib/changes/controlChangeIntent'
import type { ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import { buildJobSpec } from '@/lib/jobs/buildJobSpec'
import { controlSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { devKey } from '@/lib/keys/devKeys'
import { createMinterReader, type MinterReader } from '@/lib/web/approvals/MinterReader'
import { confirmControlChange } from '@/lib/web/changes/confirmControlChange'
import { changeToSign, proposeOnChainChange } from '@/lib/web/changes/proposeOnChainChange'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// Changes that live on chain (docs/decisions/051-on-chain-control-changes.md): two admins' keys sign, the worker
// relays through the one send pipeline, GoldMinter applies. As the web's database role alone, a change with one
// admin's signature
// and its job reaches nothing: the worker refuses it, readable in the dead letters, and nothing is sent.

type Admin = { id: string; email: string; key: ReturnType<typeof devKey> }

describe('control changes that live on chain', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess
  let web: DbClient
  let minter: MinterReader
  let admin: Admin
  let admin2: Admin

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
  const row = async (id: string) => (await t.db.select().from(controlChanges).where(eq(controlChanges.id, id)))[0]
  const isApprover = (address: Hex) =>
    chain.publicClient.readContract({
      address: chain.minterAddress,
      abi: goldMinterAbi,
      functionName: 'isApprover',
      args: [address],
    })

  async function propose(change: ParsedOnChainChange): Promise<{ changeId: string; deadline: Date }> {
    const toSign = await changeToSign({ ...change, minter })
    const deadline = new Date(toSign.deadline)
    const signature = await sign(admin, { changeId: toSign.changeId, change, deadline })
    await proposeOnChainChange(t.db, {
      body: { ...change, changeId: toSign.changeId, deadline: toSign.deadline, signature },
      author: admin,
      minter,
    })
    return { changeId: toSign.changeId, deadline }
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    web = createDb({ url: t.roleUrl('web'), max: 2 })
    minter = createMinterReader({
      client: chain.publicClient,
      chainId: chain.chainId,
      minterAddress: chain.minterAddress,
    })
    admin = await bindAdmin('onchain-admin@mintdesk.test', 'admin')
    admin2 = await bindAdmin('onchain-admin2@mintdesk.test', 'admin2')
    worker = startWorkerProcess({ name: 'control-changes', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await web?.close()
    await chain?.stop()
    await t?.drop()
  })

  it('gives typed data the contract hashes alike, and applies a new approver once a second admin signs', async () => {
    const newApprover = privateKeyToAddress(generatePrivateKey())
    const change: ParsedOnChainChange = { kind: 'approver.add', params: { address: newApprover } }
    const toSign = await changeToSign({ ...change, minter })
    expect(toSign.required).toBe(2)
    const typed = buildControlChangeTypedData(minter.domain, {
      changeId: toSign.changeId,
      change,
      deadline: new Date(toSign.deadline),
    })
    expect(toSign.typedData.message).toEqual({ ...typed.message, deadline: typed.message.deadline.toString() })
    expect(
      await chain.publicClient.readContract({
        address: chain.minterAddress,
        abi: goldMinterAbi,
        functionName: 'hashControlChange',
        args: [typed.message],
      }),
    ).toBe(hashTypedData(typed))

    // propose asks for its own typed data: its deadline, a second later or not, is the one signed
    const { changeId, deadline } = await propose(change)
    expect(await row(changeId)).toMatchObject({ status: 'awaiting_second_admin', deadline })
    // the author cannot confirm their own change
    await expect(
      confirmControlChange(t.db, {
        changeId,
        confirmer: admin,
        context: {},
        onChain: { signature: await sign(admin, { changeId, change, deadline }), minter: () => minter, maxAttempts: 5 },
      }),
    ).rejects.toMatchObject({ code: 'self_approval' })
    // a signature over another change is refused, and nothing is written
    await expect(
      confirmControlChange(t.db, {
        changeId,
        confirmer: admin2,
        context: {},
        onChain: {
          signature: await sign(admin2, { changeId: randomUUID(), change, deadline }),
          minter: () => minter,
          maxAttempts: 5,
        },
      }),
    ).rejects.toMatchObject({ code: 'invalid_signature' })
    expect(await row(changeId)).toMatchObject({ status: 'awaiting_second_admin' })

    const confirmed = await confirmControlChange(t.db, {
      changeId,
      confirmer: admin2,
      context: {},
      onChain: { signature: await sign(admin2, { changeId, change, deadline }), minter: () => minter, maxAttempts: 5 },
    })
    expect(confirmed).toMatchObject({ changeId, status: 'pending', decidedBy: admin2.email })
    await waitFor(async () => (await row(changeId))?.status === 'applied', { timeoutMs: 30_000, what: 'applied' })
    expect(await isApprover(newApprover)).toBe(true)
    const applied = await row(changeId)
    const [tx] = await t.db.select().from(chainTxs).where(eq(chainTxs.controlChangeId, changeId))
    expect(tx).toMatchObject({ operation: 'control_change', kind: 'control_change', orderId: null })
    expect(applied?.txHash).toBe(tx?.hash)
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: tx?.hash as Hex })
    expect(isAddressEqual(receipt.from, chain.signerAddresses[0] as Hex)).toBe(true)
  }, 90_000)

  it('as the web database role: a change with one admin signature, set pending with its job, is refused, nothing sent', async () => {
    const target = privateKeyToAddress(generatePrivateKey())
    const change: ParsedOnChainChange = { kind: 'approver.add', params: { address: target } }
    const { changeId } = await propose(change)
    // the attacker skips the second admin: the row made pending, the job added, all with the web's login
    await web.db
      .update(controlChanges)
      .set({ status: 'pending', decidedById: admin2.id, decidedByEmail: admin2.email, decidedAt: new Date() })
      .where(eq(controlChanges.id, changeId))
    const spec = buildJobSpec({
      task: TASK.controlSend,
      payload: { changeId },
      jobKey: controlSendJobKey(changeId),
      maxAttempts: 5,
      orderId: changeId,
      actor: 'attacker',
    })
    await web.db.execute(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)`)
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(jobRecords)
            .where(and(eq(jobRecords.orderId, changeId), eq(jobRecords.task, TASK.controlSend)))
        )[0]?.state === 'dead',
      { timeoutMs: 30_000, what: 'control_send dead' },
    )
    expect(await row(changeId)).toMatchObject({
      status: 'failed',
      failureReason: expect.stringMatching(/has 1 valid admin signature of 2 required/),
    })
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.controlChangeId, changeId))).toEqual([])
    expect(await isApprover(target)).toBe(false)
  }, 60_000)
})
