import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { CreateKeyCommand } from '@aws-sdk/client-kms'
import { and, count, eq, gte, inArray } from 'drizzle-orm'
import { type Address, getAddress, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, mintOrders, signerNonces } from '@/db/schema'
import { getKmsAddressOrThrow } from '@/scripts/stack/getKmsAddressOrThrow'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv, workerProgram } from '@/tests/helpers/workerProcess'

// The signing key's rotation as docs/deploy.md "Rotating the signing key" runs it, while orders flow: a new KMS key
// is created, the workers are rolled onto KMS_KEY_IDS=old,new (they register the new signer at start), the old
// signer is deactivated with cli/signers.ts, it drains, and the workers are rolled onto the new key alone. The web
// is not involved (nothing of it changes). Every order confirms once (one Minted per order id); the old key's
// transactions in flight at the switch are followed to the end; after the switch the old key signs no new nonce and
// its chain nonce stops. ROTATION_DRILL_ORDERS sets the orders (40 here; 300 in npm run test:chaos).

const ORDERS = Number(process.env.ROTATION_DRILL_ORDERS ?? 40)
/** orders after the old key left KMS_KEY_IDS: the new key alone signs them */
const AFTER = 5
const ROOT = path.resolve(import.meta.dirname, '..', '..')

type SignerLine = {
  msg: string
  address?: string
  keyId?: string
  nextNonce?: string
  inFlight?: number
  drained?: boolean
}

describe('the signing key rotation drill', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []

  /** cli/signers.ts as the operator runs it (the image's signers.mjs, a one-off as the owner): its JSON lines */
  async function signersCli(args: string[]): Promise<SignerLine[]> {
    const { stdout } = await promisify(execFile)(process.execPath, [...workerProgram('signers'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'test', MINTDESK_DEV: '1', DATABASE_URL: t.url },
      timeout: 60_000,
    })
    return stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as SignerLine)
  }
  const signerLine = (lines: SignerLine[], address: Address) =>
    lines.find((l) => l.msg === 'signer' && l.address !== undefined && getAddress(l.address) === address)
  const startWorker = async (name: string, keyIds: string[]) => {
    const w = startWorkerProcess({
      name,
      env: workerEnv({ databaseUrl: t.url, chain: { ...chain, kmsKeyIds: keyIds } }),
    })
    workers.push(w)
    await w.waitForLine((l) => l.msg === 'worker started', 60_000)
    return w
  }
  const confirmed = async (ids: string[]) => {
    const [row] = await t.db
      .select({ n: count() })
      .from(mintOrders)
      .where(and(inArray(mintOrders.id, ids), eq(mintOrders.status, 'confirmed')))
    return row?.n ?? 0
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  it('rotates the key while orders flow: each order minted once, the old key drained and then silent', async () => {
    const started = Date.now()
    const oldKey = { keyId: chain.kmsKeyIds[0] as string, address: getAddress(chain.signerAddresses[0] as string) }
    const w1 = await startWorker('drill-old-key', [oldKey.keyId])

    // the orders arrive over time, in waves, before, through and after the key's rotation
    const to = Array.from({ length: 5 }, () => privateKeyToAddress(generatePrivateKey()))
    const orders: TestOrder[] = []
    const wave = Math.max(1, Math.ceil(ORDERS / 20))
    const feed = async (upTo: number) => {
      while (orders.length < upTo) {
        orders.push(...(await createTestOrders(t.db, { count: Math.min(wave, upTo - orders.length), to })))
        await new Promise((r) => setTimeout(r, 250))
      }
    }
    const ids = () => orders.map((o) => o.id)
    await feed(Math.floor(ORDERS / 4))
    await waitFor(async () => (await confirmed(ids())) > 0, {
      timeoutMs: 60_000,
      what: 'the first orders confirmed by the old key',
    })

    // 1. a new key in KMS, funded; 2. a rolling deploy onto both keys: the new worker registers the new signer
    const created = await chain.kms.send(
      new CreateKeyCommand({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY', Description: 'rotation drill' }),
    )
    const newKeyId = created.KeyMetadata?.KeyId
    if (!newKeyId) throw new Error('CreateKey returned no KeyId')
    const newKey = { keyId: newKeyId, address: getAddress(await getKmsAddressOrThrow(chain.kms, { keyId: newKeyId })) }
    await chain.testClient.setBalance({ address: newKey.address, value: parseEther('100') })
    const w2 = await startWorker('drill-both-keys', [oldKey.keyId, newKey.keyId])
    await w1.stop('SIGTERM')
    expect(signerLine(await signersCli([]), newKey.address)).toMatchObject({ keyId: newKeyId, active: true })

    // 3. the switch while the old key has transactions in flight: blocks held back (automine off) while a burst is
    // signed and the next orders keep coming, then the old signer deactivated, then blocks again
    let switchAt = 0
    let atSwitch: SignerLine | undefined
    let ordersAtSwitch = 0
    let confirmedAtSwitch = 0
    let rest: Promise<void> = Promise.resolve()
    await chain.testClient.setAutomine(false)
    try {
      await feed(Math.floor(ORDERS / 2))
      await waitFor(
        async () => {
          const [row] = await t.db
            .select({ n: count() })
            .from(signerNonces)
            .where(and(eq(signerNonces.signerAddress, oldKey.address), eq(signerNonces.state, 'signed')))
          return (row?.n ?? 0) > 0
        },
        { timeoutMs: 60_000, what: 'transactions of the old key in flight' },
      )
      rest = feed(ORDERS)
      switchAt = Date.now()
      ordersAtSwitch = orders.length
      confirmedAtSwitch = await confirmed(ids())
      atSwitch = signerLine(await signersCli(['--deactivate', oldKey.keyId]), oldKey.address)
    } finally {
      await chain.testClient.setAutomine(true)
    }
    expect(atSwitch).toMatchObject({ active: false })
    const oldNextNonce = BigInt(atSwitch?.nextNonce ?? '-1')
    const inFlightAtSwitch = atSwitch?.inFlight ?? 0
    expect(inFlightAtSwitch).toBeGreaterThan(0)

    await rest
    await waitFor(async () => (await confirmed(ids())) === ORDERS, {
      timeoutMs: 60_000 + ORDERS * 500,
      intervalMs: 500,
      what: `${ORDERS} confirmed orders (logs: ${workers.map((w) => w.logFile).join(', ')})`,
    })
    // 4. drained: nothing in flight, the chain's nonce at Postgres's next nonce
    await waitFor(async () => signerLine(await signersCli([]), oldKey.address)?.drained === true, {
      timeoutMs: 30_000,
      what: 'the old signer drained',
    })
    const drainedMs = Date.now() - switchAt

    // 5. a rolling deploy onto the new key alone; orders go on
    await startWorker('drill-new-key', [newKey.keyId])
    await w2.stop('SIGTERM')
    const after = await createTestOrders(t.db, { count: AFTER, to })
    await waitFor(async () => (await confirmed(after.map((o) => o.id))) === AFTER, {
      timeoutMs: 60_000,
      what: 'the orders after the rotation confirmed',
    })
    const totalMs = Date.now() - started

    // every order minted once, by one of the two keys; Postgres and the chain agree on both signers' nonces
    await verifyMints({
      db: t.db,
      chain: { ...chain, signerAddresses: [oldKey.address, newKey.address] },
      orders: [...orders, ...after],
    })
    // the old key signed no nonce after the switch, and its chain nonce stopped there
    const newlySignedByOld = await t.db
      .select({ nonce: chainTxs.nonce, hash: chainTxs.hash })
      .from(chainTxs)
      .where(and(eq(chainTxs.signerAddress, oldKey.address), gte(chainTxs.nonce, oldNextNonce)))
    expect(newlySignedByOld).toEqual([])
    expect(BigInt(await chain.publicClient.getTransactionCount({ address: oldKey.address }))).toBe(oldNextNonce)
    const oldNonces = await t.db
      .select({ n: count() })
      .from(signerNonces)
      .where(and(eq(signerNonces.signerAddress, oldKey.address), gte(signerNonces.nonce, oldNextNonce)))
    expect(oldNonces[0]?.n).toBe(0)
    // the orders after the rotation were all the new key's
    const afterSigners = await t.db
      .selectDistinct({ signer: mintOrders.signerAddress })
      .from(mintOrders)
      .where(
        inArray(
          mintOrders.id,
          after.map((o) => o.id),
        ),
      )
    expect(afterSigners.map((s) => s.signer && getAddress(s.signer))).toEqual([newKey.address])
    const bySigner = await t.db
      .select({ signer: mintOrders.signerAddress, n: count() })
      .from(mintOrders)
      .groupBy(mintOrders.signerAddress)
    const minted = (a: Address) => bySigner.find((s) => s.signer && getAddress(s.signer) === a)?.n ?? 0
    expect(minted(oldKey.address)).toBeGreaterThan(0)
    expect(minted(newKey.address)).toBeGreaterThan(0)

    console.log(
      `[rotationDrill] ${ORDERS + AFTER} orders (${ORDERS} through the switch, ${AFTER} after the old key left) all confirmed, each minted once, in ${(totalMs / 1000).toFixed(1)} s; at the switch ${ordersAtSwitch} orders in, ${confirmedAtSwitch} confirmed, ${inFlightAtSwitch} nonces in flight on the old key (blocks held back) (next nonce ${oldNextNonce}); old key drained ${(drainedMs / 1000).toFixed(1)} s after its deactivation; minted by the old key ${minted(oldKey.address)}, by the new ${minted(newKey.address)}`,
    )
  }, 600_000)
})
