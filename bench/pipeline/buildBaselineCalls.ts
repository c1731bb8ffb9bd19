import { inArray } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { Address, Hex, PublicClient } from 'viem'
import * as schema from '../../db/schema'
import { mintOrders } from '../../db/schema/mint'
import { buildMintCall } from '../../worker/approvals/buildMintCall'
import { readMinterRules } from '../../worker/approvals/readMinterRules'
import { listBarsOfOrders } from '../../worker/db/listBarsOfOrders'
import { listOrderSignatures } from '../../worker/db/listOrderSignatures'

export type BuildBaselineCallsParameters = {
  chain: PublicClient
  chainId: number
  minterAddress: Address
  /** the baseline orders (backBaselineMints), in the order their calls are wanted */
  orderIds: readonly string[]
}

const BATCH = 200

/**
 * The GoldMinter.attestAndMint calldata of each baseline order exactly as the worker's relayer
 * builds it (worker/approvals/buildMintCall.ts): the intent rebuilt from the order and its
 * bars, the stored approvals verified and counted against GoldMinter's approvers and rule,
 * the vault's latest list verified with its custodian signature. What a relayer holding
 * nothing but its own key sends. Setup, not measured.
 */
export async function buildBaselineCalls(sql: postgres.Sql, p: BuildBaselineCallsParameters): Promise<Hex[]> {
  const db = drizzle(sql, { schema })
  const ctx = { chain: p.chain, chainId: p.chainId, minterAddress: p.minterAddress }
  const rules = await readMinterRules(ctx)
  const byId = new Map<string, Hex>()
  for (let from = 0; from < p.orderIds.length; from += BATCH) {
    const ids = p.orderIds.slice(from, from + BATCH)
    await db.transaction(async (tx) => {
      const orders = await tx.select().from(mintOrders).where(inArray(mintOrders.id, ids))
      const bars = await listBarsOfOrders(tx, { orderIds: ids })
      const signatures = await listOrderSignatures(tx, { orderIds: ids })
      for (const order of orders) {
        const call = await buildMintCall(ctx, tx, {
          order,
          bars: bars.get(order.id) ?? [],
          signatures: signatures.get(order.id) ?? [],
          rules,
        })
        byId.set(order.id, call.data)
      }
    })
  }
  return p.orderIds.map((id) => {
    const data = byId.get(id)
    if (!data) throw new Error(`no baseline call for order ${id}`)
    return data
  })
}
