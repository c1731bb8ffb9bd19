import { asc, eq, inArray } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Db } from '@/db/client'
import { chainTxs, mintOrders, signerNonces, signers } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import type { ChainFixture } from '@/tests/fixtures/chain'
import type { TestOrder } from '@/tests/helpers/orders'

export type VerifyMintsParameters = {
  db: Db
  chain: Pick<ChainFixture, 'publicClient' | 'tokenAddress' | 'signerAddresses'>
  orders: readonly TestOrder[]
  /** orders that must NOT be minted (failed or cancelled) */
  unminted?: readonly TestOrder[]
}

/**
 * The exactly-once checks of invariants 2 and 3, read from the chain itself:
 * - one Minted event per order id (none for `unminted`), to the right recipient and amount;
 * - total supply = the sum of the minted orders;
 * - every order confirmed, its tx_hash one of its stored transactions and the one that
 *   emitted its Minted event;
 * - per signer: chain nonce = Postgres next_nonce, signer_nonces contiguous and all mined.
 */
export async function verifyMints({ db, chain, orders, unminted = [] }: VerifyMintsParameters): Promise<void> {
  const logs = await chain.publicClient.getContractEvents({
    address: chain.tokenAddress,
    abi: goldTokenAbi,
    eventName: 'Minted',
    fromBlock: 0n,
    toBlock: 'latest',
  })
  const byOrder = new Map<string, typeof logs>()
  for (const log of logs) {
    const key = String(log.args.orderId).toLowerCase()
    byOrder.set(key, [...(byOrder.get(key) ?? []), log])
  }
  const duplicates = [...byOrder.entries()].filter(([, l]) => l.length > 1).map(([k]) => k)
  expect(duplicates, 'orders minted more than once').toEqual([])
  expect(logs.length, 'Minted events').toBe(orders.length)

  const rows =
    orders.length === 0
      ? []
      : await db
          .select()
          .from(mintOrders)
          .where(
            inArray(
              mintOrders.id,
              orders.map((o) => o.id),
            ),
          )
  const rowById = new Map(rows.map((r) => [r.id, r]))
  for (const order of orders) {
    const mintedLogs = byOrder.get(orderIdToBytes32(order.id)) ?? []
    expect(mintedLogs.length, `Minted events of order ${order.id}`).toBe(1)
    const [log] = mintedLogs
    expect(log.args.to?.toLowerCase()).toBe(order.toAddress.toLowerCase())
    expect(log.args.amount).toBe(order.amountWei)
    const row = rowById.get(order.id)
    expect(row?.status, `status of order ${order.id}`).toBe('confirmed')
    expect(row?.txHash).toBe(log.transactionHash)
    const stored = await db.select({ hash: chainTxs.hash }).from(chainTxs).where(eq(chainTxs.orderId, order.id))
    expect(stored.map((s) => s.hash)).toContain(log.transactionHash)
  }
  for (const order of unminted)
    expect(byOrder.get(orderIdToBytes32(order.id)) ?? [], `order ${order.id} must not be minted`).toEqual([])

  const supply = await chain.publicClient.readContract({
    address: chain.tokenAddress,
    abi: goldTokenAbi,
    functionName: 'totalSupply',
  })
  expect(supply).toBe(orders.reduce((s, o) => s + o.amountWei, 0n))

  for (const address of chain.signerAddresses) {
    const [row] = await db.select().from(signers).where(eq(signers.address, address))
    const chainNonce = BigInt(await chain.publicClient.getTransactionCount({ address, blockTag: 'latest' }))
    if (!row) {
      expect(chainNonce, `unregistered signer ${address} sent nothing`).toBe(0n)
      continue
    }
    expect(chainNonce, `chain nonce of ${address}`).toBe(row.nextNonce)
    const nonces = await db
      .select()
      .from(signerNonces)
      .where(eq(signerNonces.signerAddress, address))
      .orderBy(asc(signerNonces.nonce))
    const first = nonces[0]?.nonce ?? row.nextNonce
    expect(
      nonces.map((n) => n.nonce),
      `signer_nonces of ${address} are contiguous`,
    ).toEqual(Array.from({ length: Number(row.nextNonce - first) }, (_, i) => first + BigInt(i)))
    expect(
      nonces.filter((n) => n.state !== 'mined').map((n) => `${n.nonce}:${n.state}`),
      `unmined nonces of ${address}`,
    ).toEqual([])
  }
}
