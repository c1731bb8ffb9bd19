import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { encodeFunctionData, getAddress, type Hex, keccak256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner } from '@/tests/helpers/signers'
import { insertTestUsers } from '@/tests/helpers/users'
import { orderIdToBytes32 } from '@/worker/chain/orderIdToBytes32'
import { StoredTxMismatchError } from '@/worker/errors/chain'
import type { ChainTx } from '../db/listOrderTxs'
import { verifyStoredTx } from './verifyStoredTx'

// What the worker accepts as stored bytes to send again or replace (invariant 7): exactly
// the order's mint, signed by a registered signer of ours, for this chain and nonce.

const CHAIN_ID = 31337
const TOKEN = getAddress('0x5FbDB2315678afecb367f032d93F642f64180aa3')
const signer = privateKeyToAccount(generatePrivateKey())
let t: TestDatabase
let order: { id: string; to: string; amountWei: bigint }

beforeAll(async () => {
  t = await createTestDatabase()
  const u = await insertTestUsers(t.db)
  await insertSigner(t.db, { address: signer.address })
  order = await insertOrder(t.db, { requestedBy: u.staff.id, barsFineOz: ['401.084', '100.000'] })
})

afterAll(async () => {
  await t.drop()
})

const ctx = () => ({ db: t.db, chainId: CHAIN_ID, tokenAddress: TOKEN })
const mintData = (p: { to?: string; amountWei?: bigint; orderId?: string } = {}) =>
  encodeFunctionData({
    abi: goldTokenAbi,
    functionName: 'mint',
    args: [getAddress(p.to ?? order.to), p.amountWei ?? order.amountWei, orderIdToBytes32(p.orderId ?? order.id)],
  })

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
      expect(e.message).toMatch(/^stored transaction does not match its order: .*its calldata is not mint/)
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
    expect((await refusal(await stored({ to: signer.address }))).message).toMatch(/not to the token/)
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
})
