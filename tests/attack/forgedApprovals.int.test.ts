import { randomBytes, randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { encodeFunctionData, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { chainTxs, jobRecords, mintOrders } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { buildJobSpec } from '@/lib/jobs/buildJobSpec'
import { devKey } from '@/lib/keys/devKeys'
import { buildMintIntentTypedData } from '@/lib/mint/buildMintIntent'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { readOrderIntent } from '@/lib/web/approvals/readOrderIntent'
import { mintSendJob } from '@/lib/web/queue/mintSendJob'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { ensureDevApprovers, insertSignedBarList, signOrderApprovals } from '@/tests/helpers/approvals'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrderBars } from '@/tests/helpers/insertOrderBars'
import { createTestOrders } from '@/tests/helpers/orders'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertUser } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { decodeMintError } from '@/worker/chain/decodeMintError'

// Invariant 6 under attack: an attacker holding the web's database login (mintdesk_web) writes
// what the approvals would have written, and adds the mint_send job itself; an attacker holding
// the worker's KMS key alone calls GoldMinter directly. Nothing reaches the chain, and each
// refusal is readable in the dead letters.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('forged approvals, as the web database role and as the KMS key alone', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let worker: WorkerProcess
  let web: DbClient
  let requester: { id: string; email: string }
  let approverId: string

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
    web = createDb({ url: t.roleUrl('web'), max: 2 })
    requester = await insertUser(t.db, 'staff')
    const approvers = await ensureDevApprovers(t.db)
    approverId = approvers[0]?.userId ?? ''
    await allowRecipients(t.db, [RECIPIENT])
    worker = startWorkerProcess({ name: 'forged', env: workerEnv({ databaseUrl: t.url, chain }) })
    await worker.waitForLine((l) => l.msg === 'worker started')
  })
  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await web?.close()
    await chain?.stop()
    await t?.drop()
  })

  /**
   * As the web role: a `pending` order (approved_by set) of one bar on the vault's
   * custodian-signed list (or `offList`: a bar the attacker invents), without its job.
   */
  async function forgedOrder(p: { offList?: boolean } = {}): Promise<string> {
    const id = randomUUID()
    const vault = `ATK-${randomBytes(3).toString('hex')}`
    await web.db.insert(mintOrders).values({
      id,
      toAddress: RECIPIENT,
      amountWei: (10n ** 18n).toString(),
      status: 'pending',
      vault,
      receiptRef: 'VR-FORGED',
      documentSha256: '0'.repeat(64),
      requestedBy: requester.id,
      approvedBy: approverId,
    })
    const bar = { grossOz: '1.001', fineness: '999.00', fineOz: '1.000' }
    const [barId] = await insertOrderBars(web.db, { orderId: id, vault, orderStatus: 'pending', bars: [bar] })
    // the custodian's genuine list of the vault; an invented bar is not on it
    const listed = p.offList ? [await insertListedBar(vault)] : [barId ?? '']
    await insertSignedBarList(t.db, { vault, barIds: listed })
    if (p.offList && barId) {
      const [list] = await t.db.execute<{ id: string }>(
        sql`select id::text as id from bar_lists where vault = ${vault} order by imported_at desc limit 1`,
      )
      // the attacker points its bar at the list: the list's bars then no longer give its signed root
      await web.db.execute(sql`update vault_bars set last_list_id = ${list?.id ?? ''}::uuid where id = ${barId}::uuid`)
    }
    return id
  }

  /** A bar the custodian listed for the vault, free (the genuine list's one bar). */
  async function insertListedBar(vault: string): Promise<string> {
    const serial = `L${randomBytes(5).toString('hex').toUpperCase()}`
    const [row] = await t.db.execute<{ id: string }>(sql`
      insert into vault_bars (vault, serial, refiner, serial_key, refiner_key, year, gross_oz, fineness, fine_oz, status)
      values (${vault}, ${serial}, 'PAMP SA', ${serial}, 'PAMPSA', 2025, 1.001, 999.00, 1.000, 'available')
      returning id::text as id`)
    return row?.id ?? ''
  }

  /** As the web role: the mint_send job, added through the one enqueue the web may call (public.enqueue_job). */
  async function addJob(orderId: string): Promise<void> {
    const spec = buildJobSpec(
      mintSendJob({ orderId, maxAttempts: 2, actor: 'attacker', detail: 'forged', transport: 'postgres' }),
    )
    await web.db.execute(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)`)
  }

  const deadLetter = async (orderId: string) => {
    await waitFor(
      async () => (await t.db.select().from(jobRecords).where(eq(jobRecords.orderId, orderId)))[0]?.state === 'dead',
      { timeoutMs: 30_000, what: `the job of ${orderId} dead` },
    )
    const [record] = await t.db.select().from(jobRecords).where(eq(jobRecords.orderId, orderId))
    const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId))
    const minted = await chain.publicClient.readContract({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'isMinted',
      args: [orderIdToBytes32(orderId)],
    })
    return { error: record?.lastError ?? '', status: order?.status, nonce: order?.nonce, minted }
  }

  it('a pending order with approved_by set and no signature: refused, dead letter says why', async () => {
    const id = await forgedOrder()
    await addJob(id)
    const dead = await deadLetter(id)
    expect(dead).toMatchObject({ status: 'failed', nonce: null, minted: false })
    expect(dead.error).toMatch(/0 valid approver signatures of 1 required/)
  })

  it("a forged signature row in an approver's name, and one by a key the attacker bound to an approver user: refused", async () => {
    const id = await forgedOrder()
    const intent = await readOrderIntent(t.db, { orderId: id })
    if (!intent) throw new Error('no intent')
    const typed = buildMintIntentTypedData({ chainId: chain.chainId, verifyingContract: chain.minterAddress }, intent)
    const attacker = privateKeyToAccount(generatePrivateKey())
    const posing = await attacker.signTypedData(typed)
    await web.db.execute(sql`
      insert into mint_order_signatures (order_id, user_id, signer_address, signature)
      values (${id}::uuid, ${approverId}::uuid, ${devKey('approver').address.toLowerCase()}, ${posing})`)
    // the web may bind keys: the attacker binds its own to another approver user
    const other = await insertUser(t.db, 'approver')
    await web.db.execute(sql`
      insert into user_signing_keys (address, user_id, binding_signature)
      values (${attacker.address.toLowerCase()}, ${other.id}::uuid, '0x')`)
    await web.db.execute(sql`
      insert into mint_order_signatures (order_id, user_id, signer_address, signature)
      values (${id}::uuid, ${other.id}::uuid, ${attacker.address.toLowerCase()}, ${posing})`)
    await addJob(id)
    const dead = await deadLetter(id)
    expect(dead).toMatchObject({ status: 'failed', minted: false })
    expect(dead.error).toMatch(/signature is not valid for this order's intent/)
    expect(dead.error).toMatch(/is not an approver on chain/)
  })

  it('an invented bar (not on the custodian-signed list), even with a genuine approval: refused', async () => {
    const id = await forgedOrder({ offList: true })
    await signOrderApprovals(t.db, {
      orderId: id,
      domain: { chainId: chain.chainId, verifyingContract: chain.minterAddress },
    })
    await addJob(id)
    const dead = await deadLetter(id)
    expect(dead).toMatchObject({ status: 'failed', minted: false })
    expect(dead.error).toMatch(/do not give the root and total it signed|not on the custodian-signed list/)
  })

  it("an approved order's recipient, amount or deadline changed after the signatures: refused", async () => {
    for (const tamper of [
      sql`to_address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'`,
      sql`amount_wei = amount_wei * 2`,
      sql`intent_deadline = intent_deadline + interval '1 day'`,
    ]) {
      const id = await forgedOrder()
      await signOrderApprovals(t.db, {
        orderId: id,
        domain: { chainId: chain.chainId, verifyingContract: chain.minterAddress },
      })
      await web.db.execute(sql`update mint_orders set ${tamper} where id = ${id}::uuid`)
      await addJob(id)
      const dead = await deadLetter(id)
      expect(dead).toMatchObject({ status: 'failed', minted: false })
      expect(dead.error).toMatch(/refused to sign/)
    }
  })

  it("the KMS key alone against GoldMinter and GoldToken: no signatures, forged ones, a mined order's calldata again, a direct token mint all revert", async () => {
    const from = chain.signerAddresses[0]
    if (!from) throw new Error('no signer')
    // a genuine order, minted: its stored calldata, replayed by the key, is refused
    const [mined] = await createTestOrders(t.db, { count: 1, to: [RECIPIENT] })
    if (!mined) throw new Error('no order')
    await waitFor(
      async () => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, mined.id)))[0]?.status === 'confirmed',
      { timeoutMs: 30_000, what: 'the genuine order confirmed' },
    )
    const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, mined.id))
    const replayed = (await chain.publicClient.getTransaction({ hash: (stored?.hash ?? '0x') as Hex })).input
    const intent = {
      orderId: orderIdToBytes32(randomUUID()),
      to: RECIPIENT as Hex,
      amount: 10n ** 18n,
      barsHash: `0x${'11'.repeat(32)}` as Hex,
      deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
    }
    const calls: { to: Hex; data: Hex; expected: string }[] = [
      { to: chain.minterAddress, data: replayed, expected: 'OrderAlreadyMinted' },
      {
        to: chain.minterAddress,
        data: encodeFunctionData({ abi: goldMinterAbi, functionName: 'mint', args: [intent, []] }),
        expected: 'NotEnoughSignatures',
      },
      {
        to: chain.minterAddress,
        data: encodeFunctionData({
          abi: goldMinterAbi,
          functionName: 'mint',
          args: [intent, [{ signer: devKey('approver').address, signature: `0x${'22'.repeat(65)}` }]],
        }),
        expected: 'InvalidSignature',
      },
      {
        to: chain.tokenAddress,
        data: encodeFunctionData({
          abi: goldTokenAbi,
          functionName: 'mint',
          args: [RECIPIENT, 10n ** 18n, intent.orderId],
        }),
        expected: 'AccessControlUnauthorizedAccount',
      },
    ]
    for (const c of calls) {
      const error = await chain.publicClient.call({ account: from, to: c.to, data: c.data }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(decodeMintError(error)?.errorName).toBe(c.expected)
    }
    // only the genuine order's ounce is on chain
    expect(
      await chain.publicClient.readContract({
        address: chain.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'totalSupply',
      }),
    ).toBe(mined.amountWei)
  })
})
