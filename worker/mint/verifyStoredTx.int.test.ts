import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { encodeFunctionData, getAddress, type Hex, keccak256, zeroAddress, zeroHash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { type BuildMintIntentParameters, buildMintIntent } from '@/lib/mint/buildMintIntent'
import { readOrderIntent } from '@/lib/web/approvals/readOrderIntent'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner } from '@/tests/helpers/signers'
import { insertTestUsers } from '@/tests/helpers/users'
import { StoredTxMismatchError } from '@/worker/errors/chain'
import type { ChainTx } from '../db/listOrderTxs'
import { verifyStoredTx } from './verifyStoredTx'

// What the worker accepts as stored bytes to send again or replace (invariant 7): exactly
// attestAndMint of the order's intent, to GoldMinter, signed by a registered signer of ours, for this chain and nonce.

const CHAIN_ID = 31337
const TOKEN = getAddress('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512')
const signer = privateKeyToAccount(generatePrivateKey())
let t: TestDatabase
let order: { id: string; to: string; amountWei: bigint }
let intentOf: BuildMintIntentParameters

beforeAll(async () => {
  t = await createTestDatabase()
  const u = await insertTestUsers(t.db)
  await insertSigner(t.db, { address: signer.address })
  order = await insertOrder(t.db, { requestedBy: u.staff.id, barsFineOz: ['401.084', '100.000'] })
  const read = await readOrderIntent(t.db, { orderId: order.id })
  if (!read) throw new Error('no intent')
  intentOf = read
})

afterAll(async () => {
  await t.drop()
})

// the minter's address on a fresh test chain (scripts/stack/devChain.ts); the test sends nothing
const ctx = () => ({ db: t.db, chainId: CHAIN_ID, minterAddress: TOKEN })
const mintData = (p: { to?: string; amountWei?: bigint; orderId?: string } = {}) => {
  const intent = buildMintIntent({ ...intentOf, to: p.to ?? order.to, orderId: p.orderId ?? order.id })
  const list = { vault: zeroHash, asOf: 0n, barsRoot: zeroHash, totalFineWei: 0n }
  return encodeFunctionData({
    abi: goldMinterAbi,
    functionName: 'attestAndMint',
    args: [list, zeroAddress, '0x', { ...intent, amount: p.amountWei ?? intent.amount }, []],
  })
}

async function stored(
  p: {
    data?: Hex
    to?: Hex
    chainId?: number
    nonce?: number
    value?: bigint
    by?: typeof signer
    kind?: ChainTx['kind']
    signerAddress?: string
    raw?: Hex
  } = {},
): Promise<ChainTx> {
  const by = p.by ?? signer
  const raw =
    p.raw ??
    (await by.signTransaction({
      type: 'eip1559',
      chainId: p.chainId ?? CHAIN_ID,
      nonce: p.nonce ?? 7,
      to: p.to ?? TOKEN,
      value: p.value ?? 0n,
      gas: 120_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      data: p.data ?? mintData(),
    }))
  return {
    hash: keccak256(raw),
    signerAddress: p.signerAddress ?? signer.address,
    nonce: 7n,
    orderId: order.id,
    controlChangeId: null,
    redemptionId: null,
    complianceOperationId: null,
    operation: 'mint',
    kind: p.kind ?? 'mint',
    rawTx: raw,
    maxFeePerGas: '2000000000',
    maxPriorityFeePerGas: '1000000000',
    gasLimit: '120000',
    createdAt: new Date(),
    broadcastAt: null,
    minedBlock: null,
  }
}

const refusal = async (tx: ChainTx) => (await verifyStoredTx(ctx(), { tx }).catch((e: unknown) => e)) as Error

describe('verifyStoredTx', () => {
  it("accepts the order's exact mint (and a replacement of it) and answers the re-derived calldata", async () => {
    expect(await verifyStoredTx(ctx(), { tx: await stored() })).toEqual({ data: mintData() })
    expect(await verifyStoredTx(ctx(), { tx: await stored({ kind: 'replacement' }) })).toEqual({ data: mintData() })
  })

  it('refuses another recipient, amount or order id in the calldata', async () => {
    for (const data of [
      mintData({ to: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc' }),
      mintData({ amountWei: order.amountWei + 1n }),
      mintData({ orderId: '00000000-0000-4000-8000-000000000000' }),
    ]) {
      const e = await refusal(await stored({ data }))
      expect(e).toBeInstanceOf(StoredTxMismatchError)
      expect(e.message).toMatch(/^stored transaction does not match its order: .*its calldata is not attestAndMint/)
    }
  })

  it("refuses an amount that is not its bars' weight even when the row says so", async () => {
    await t.db.execute(sql`update mint_orders set amount_wei = amount_wei * 2 where id = ${order.id}::uuid`)
    try {
      expect((await refusal(await stored({ data: mintData({ amountWei: order.amountWei * 2n }) }))).message).toMatch(
        /its calldata/,
      )
    } finally {
      await t.db.execute(
        sql`update mint_orders set amount_wei = ${order.amountWei.toString()}::numeric where id = ${order.id}::uuid`,
      )
    }
  })

  it('refuses another signer, an unregistered one, another chain, nonce, target or value, and bytes that do not decode', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    expect((await refusal(await stored({ by: stranger }))).message).toMatch(
      new RegExp(`signed by ${stranger.address}, not by`),
    )
    expect((await refusal(await stored({ by: stranger, signerAddress: stranger.address }))).message).toMatch(
      /not one of our signers/,
    )
    expect((await refusal(await stored({ chainId: 1 }))).message).toMatch(/for chain 1, not 31337/)
    expect((await refusal(await stored({ nonce: 8 }))).message).toMatch(/nonce 8, not 7/)
    expect((await refusal(await stored({ to: signer.address }))).message).toMatch(/not to the minter/)
    expect((await refusal(await stored({ value: 1n }))).message).toMatch(/carries value 1/)
    expect((await refusal(await stored({ raw: `0x02${randomBytes(40).toString('hex')}` }))).message).toMatch(
      /does not decode/,
    )
  })

  it('a gap fill must be a zero-value self-transfer', async () => {
    expect(
      await verifyStoredTx(ctx(), { tx: await stored({ kind: 'gap_fill', to: signer.address, data: '0x' }) }),
    ).toEqual({ data: '0x' })
    expect((await refusal(await stored({ kind: 'gap_fill' }))).message).toMatch(/not a zero-value self-transfer/)
  })

  it('refuses a call that carries no operation, or one whose operation does not exist', async () => {
    const none = { ...(await stored()), orderId: null, operation: null }
    expect((await refusal(none)).message).toMatch(/carries no operation/)
    const gone = { ...(await stored()), orderId: '00000000-0000-4000-8000-000000000000' }
    expect((await refusal(gone)).message).toMatch(/its order 00000000-0000-4000-8000-000000000000 does not exist/)
  })
})
