import { createHash } from 'node:crypto'
import { inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mintOrders } from '@/db/schema/mint'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { devAccountAt } from '@/lib/keys/devKeys'
import { createMinterReader } from '@/lib/web/approvals/MinterReader'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { approveRedemption } from '@/lib/web/redemptions/approveRedemption'
import { createRedemption } from '@/lib/web/redemptions/createRedemption'
import { getRedemptionApprovalOrThrow } from '@/lib/web/redemptions/getRedemptionApprovalOrThrow'
import type { ApiAttestationPack } from '@/lib/web/reserves/apiTypes'
import { attestationPackSchema } from '@/lib/web/reserves/responseSchemas'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys, ensureDevApprovers } from '@/tests/helpers/approvals'
import { stockBars, type TestListBar } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { depositToRedemptionAddress, signRedemptionApproval } from '@/tests/helpers/redemptions'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// The point-in-time attestation pack (docs/decisions/061-attestation-pack.md) on a real anvil and Postgres: mints
// confirmed and a burn made by a real worker process, then GET /api/reserves/attestation through its real handler
// for a block before and a block after (only the session module is replaced: next-auth does not load under plain
// Node, and this route never asks for a session).
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('@/tests/attack/fakeSession')).fakeSessionModule)

const VAULT = 'ATT-1'
const holder = devAccountAt(6)
/** Valcambi SA, 401.125 oz at 999.9 -> 401.084 oz fine */
const FINE_WEI = 401_084n * 10n ** 15n
const BARS: TestListBar[] = ['ATT-001', 'ATT-002', 'ATT-003'].map((serial) => ({ serial }))

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

describe('GET /api/reserves/attestation: the pack of a past block after later mints and a burn', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let u: TestUsers
  let worker: WorkerProcess | undefined
  let handler: Handler
  let clearReader = () => {}
  let closeWebDb: () => Promise<void> = async () => {}
  /** the head once the first two mints were confirmed */
  let before: bigint
  let after: bigint
  let firstListId: string
  const orders: Record<string, string> = {}

  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await handler(new Request(`http://localhost:3000${path}`, { headers }), {
      params: Promise.resolve({}),
    })
    const bytes = Buffer.from(await res.arrayBuffer())
    return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') }
  }

  const supplyAt = (blockNumber: bigint) =>
    chain.publicClient.readContract({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'totalSupply',
      blockNumber,
    })

  async function mint(serial: string) {
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      maxAttempts: 5,
      request: buildMintRequest({ to: holder.address, vault: VAULT, receiptRef: `VR-${serial}`, bars: [{ serial }] }),
    })
    await approveWithDevKeys(t.db, { orderId: accepted.orderId })
    orders[serial] = accepted.orderId
    return accepted.orderId
  }

  async function confirmed(ids: string[]) {
    await waitFor(
      async () => {
        const rows = await t.db
          .select({ status: mintOrders.status })
          .from(mintOrders)
          .where(inArray(mintOrders.id, ids))
        return rows.length === ids.length && rows.every((r) => r.status === 'confirmed')
      },
      { timeoutMs: 60_000, intervalMs: 200, what: `${ids.length} confirmed orders (log: ${worker?.logFile})` },
    )
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
    u = await insertTestUsers(t.db)
    Object.assign(process.env, {
      DATABASE_URL: t.url,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      TOKEN_ADDRESS: chain.tokenAddress,
      MINTER_ADDRESS: chain.minterAddress,
      CONFIRMATIONS: '1',
      RPC_POLLING_MS: '100',
    })
    const web = await import('@/lib/web/webProcess')
    closeWebDb = () => web.getWebDb().close()
    clearReader = () => web.getReservesReader().clear()
    handler = (await import('@/app/api/reserves/attestation/route')).GET as Handler

    const listed = await stockBars(t.db, { vault: VAULT, bars: BARS })
    if (!listed) throw new Error('no bar list')
    firstListId = listed.listId
    await allowRecipients(t.db, [holder.address])
    worker = startWorkerProcess({
      name: 'attestation',
      env: workerEnv({ databaseUrl: t.url, chain, env: { DEPOSIT_WATCH_MS: '200' } }),
    })
    await confirmed([await mint('ATT-001'), await mint('ATT-002')])
    before = await chain.publicClient.getBlockNumber()
    // past the block's second: a list imported from now on was not held at its time
    await new Promise((resolve) => setTimeout(resolve, 1_100))

    // later: one more bar listed (a new list), one more mint, and ATT-001 redeemed (burned)
    await stockBars(t.db, { vault: VAULT, bars: [{ serial: 'ATT-004' }] })
    await confirmed([await mint('ATT-003')])
    const txHash = await depositToRedemptionAddress(chain, { holder, amount: FINE_WEI })
    await waitFor(
      async () =>
        (await t.db.execute(sql`select 1 from deposits where tx_hash = ${txHash}`)).length > 0 ? true : undefined,
      { timeoutMs: 30_000, what: 'the deposit seen' },
    )
    const minter = createMinterReader({
      client: chain.publicClient,
      chainId: chain.chainId,
      minterAddress: chain.minterAddress,
    })
    const [approverKey] = await ensureDevApprovers(t.db)
    if (!approverKey) throw new Error('no approver')
    const [row] = await t.db.execute<{ email: string }>(
      sql`select email from users where id = ${approverKey.userId}::uuid`,
    )
    const { redemptionId } = await createRedemption(t.db, {
      input: { depositTx: txHash, bars: [{ serial: 'ATT-001', refiner: 'Valcambi SA' }], reference: 'ATT-REDEEM' },
      user: { id: u.staff.id, email: u.staff.email },
      minter,
    })
    const approval = await getRedemptionApprovalOrThrow(t.db, { redemptionId, minter })
    await approveRedemption(t.db, {
      redemptionId,
      user: { id: approverKey.userId, email: row?.email ?? '', role: 'approver' },
      signature: await signRedemptionApproval(approval),
      minter,
      maxAttempts: 5,
    })
    await waitFor(
      async () => {
        const [r] = await t.db.execute<{ status: string }>(
          sql`select status::text as status from redemptions where id = ${redemptionId}::uuid`,
        )
        return r?.status === 'burned' ? true : undefined
      },
      { timeoutMs: 60_000, intervalMs: 200, what: `the burn (log: ${worker.logFile})` },
    )
    after = await chain.publicClient.getBlockNumber()
  }, 240_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await closeWebDb()
    await chain?.stop()
    await t?.drop()
  })

  it('the past block: its supply as the chain had it, the list then in force, exactly the bars of the mints confirmed by then', async () => {
    const res = await get(`/api/reserves/attestation?block=${before}`)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const pack = JSON.parse(res.text) as ApiAttestationPack
    // the answer is what the OpenAPI document says it is
    expect(attestationPackSchema.safeParse(pack).error).toBeUndefined()
    const block = await chain.publicClient.getBlock({ blockNumber: before })
    const supplyWei = await supplyAt(before)
    expect(supplyWei).toBe(2n * FINE_WEI)
    expect(pack).toMatchObject({
      kind: 'mintdesk.reserves-attestation',
      chainId: chain.chainId,
      tokenAddress: chain.tokenAddress,
      block: {
        number: before.toString(),
        hash: block.hash,
        timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
      },
      totalSupply: '802.168',
      totals: { totalSupply: '802.168', backingFineOz: '802.168', differenceOz: '0.000', status: 'covered' },
    })
    expect(pack.barLists).toHaveLength(1)
    expect(pack.barLists[0]).toMatchObject({
      vault: VAULT,
      listId: firstListId,
      barCount: 3,
      membersRecorded: 3,
      totalFineOz: '1203.252',
      signer: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      custodianSignature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    })
    const mined = await t.db.execute<{ id: string; tx_hash: string; block_number: string }>(sql`
      select id::text as id, tx_hash, block_number::text as block_number from mint_orders where status = 'confirmed'`)
    const minedOf = (id: string | undefined) => mined.find((m) => m.id === id)
    expect(pack.bars).toEqual(
      ['ATT-001', 'ATT-002'].map((serial) => ({
        vault: VAULT,
        serial,
        refiner: 'Valcambi SA',
        fineOz: '401.084',
        orderId: orders[serial],
        txHash: minedOf(orders[serial])?.tx_hash,
        blockNumber: minedOf(orders[serial])?.block_number,
      })),
    )
    for (const b of pack.bars) expect(BigInt(b.blockNumber)).toBeLessThanOrEqual(before)
  })

  it('the block after: the supply then, the new list, the burned bar out and the later mint in', async () => {
    const res = await get(`/api/reserves/attestation?block=${after}`)
    expect(res.status, res.text).toBe(200)
    const pack = JSON.parse(res.text) as ApiAttestationPack
    expect(await supplyAt(after)).toBe(2n * FINE_WEI)
    expect(pack.totalSupply).toBe('802.168')
    expect(pack.barLists.map((l) => [l.vault, l.barCount, l.membersRecorded])).toEqual([[VAULT, 4, 4]])
    expect(pack.barLists[0]?.listId).not.toBe(firstListId)
    expect(pack.bars.map((b) => [b.serial, b.orderId])).toEqual([
      ['ATT-002', orders['ATT-002']],
      ['ATT-003', orders['ATT-003']],
    ])
    expect(pack.totals).toEqual({
      totalSupply: '802.168',
      backingFineOz: '802.168',
      differenceOz: '0.000',
      status: 'covered',
    })
  })

  it('the same block gives the same bytes, read again from scratch; X-Pack-Sha256 is their sha256; a final pack may be cached', async () => {
    const first = await get(`/api/reserves/attestation?block=${before}`)
    clearReader()
    const second = await get(`/api/reserves/attestation?block=${before}&format=json`)
    expect(second.bytes.equals(first.bytes)).toBe(true)
    const sha = createHash('sha256').update(first.bytes).digest('hex')
    expect(first.headers.get('x-pack-sha256')).toBe(sha)
    expect(second.headers.get('x-pack-sha256')).toBe(sha)
    expect(first.headers.get('cache-control')).toMatch(/public/)
    expect(first.headers.get('content-disposition')).toBe(
      `attachment; filename="mintdesk-attestation-${chain.chainId}-${before}.json"`,
    )
  })

  it('the bars as CSV, by ?format=csv or by Accept: text/csv, with their own sha256', async () => {
    const byQuery = await get(`/api/reserves/attestation?block=${before}&format=csv`)
    const byAccept = await get(`/api/reserves/attestation?block=${before}`, { accept: 'text/csv' })
    expect(byQuery.status, byQuery.text).toBe(200)
    expect(byQuery.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(byAccept.bytes.equals(byQuery.bytes)).toBe(true)
    expect(byQuery.headers.get('x-pack-sha256')).toBe(createHash('sha256').update(byQuery.bytes).digest('hex'))
    const lines = byQuery.text.split('\r\n')
    expect(lines[0]).toBe('vault,serial,refiner,fineOz,orderId,txHash,blockNumber')
    expect(lines.slice(1, 3).map((l) => l.split(',').slice(0, 5))).toEqual([
      [VAULT, 'ATT-001', 'Valcambi SA', '401.084', orders['ATT-001']],
      [VAULT, 'ATT-002', 'Valcambi SA', '401.084', orders['ATT-002']],
    ])
    expect(lines.slice(3)).toEqual([''])
    // ?format=json wins over the Accept header
    const json = await get(`/api/reserves/attestation?block=${before}&format=json`, { accept: 'text/csv' })
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('refuses a missing, malformed, negative or future block: 422 in the API error shape', async () => {
    const head = await chain.publicClient.getBlockNumber()
    for (const query of ['', '?block=', '?block=abc', '?block=-1', '?block=1.5', '?block=1e3', '?block=1&block=2']) {
      const res = await get(`/api/reserves/attestation${query}`)
      expect(res.status, query).toBe(422)
      const body = JSON.parse(res.text)
      expect(body.error).toMatchObject({
        code: 'validation_failed',
        issues: [expect.objectContaining({ path: 'block' })],
      })
    }
    const future = await get(`/api/reserves/attestation?block=${head + 1000n}`)
    expect(future.status, future.text).toBe(422)
    expect(JSON.parse(future.text).error).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'block', message: expect.stringContaining("beyond the chain's head") }],
    })
    const badFormat = await get(`/api/reserves/attestation?block=1&format=xml`)
    expect(badFormat.status).toBe(422)
    expect(JSON.parse(badFormat.text).error.issues[0].path).toBe('format')
  })
})
