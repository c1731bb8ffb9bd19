import type { Hex } from 'viem'
import { buildMintCall } from '../../approvals/buildMintCall'
import { readMinterRules } from '../../approvals/readMinterRules'
import { createBarListReader } from '../../db/createBarListReader'
import { listBarsOfOrders } from '../../db/listBarsOfOrders'
import { listOrderSignatures } from '../../db/listOrderSignatures'
import type { MintOrder } from '../../db/readMintOrderRow'
import type { WorkerContext } from '../../runtime/context'

export type PrepareMintCallsParameters = { rows: readonly MintOrder[] }

/**
 * The mint kind's calls before the lock: the minter's rules, the orders' bars and their
 * approvers' signatures read once for the batch (the vaults' bar lists once per vault), then
 * per order its attestAndMint calldata (buildMintCall: every approval and the custodian's bar
 * list verified; a refusal rejects).
 */
export async function prepareMintCalls(
  ctx: WorkerContext,
  { rows }: PrepareMintCallsParameters,
): Promise<(p: { row: MintOrder }) => Promise<Hex>> {
  const orderIds = rows.map((r) => r.id)
  const [rules, barsByOrder, signaturesByOrder] = await Promise.all([
    readMinterRules(ctx),
    ctx.db.transaction((tx) => listBarsOfOrders(tx, { orderIds })),
    listOrderSignatures(ctx.db, { orderIds }),
  ])
  const barList = createBarListReader(ctx.db)
  return async ({ row }) => {
    const call = await buildMintCall(ctx, ctx.db, {
      barList,
      order: row,
      bars: barsByOrder.get(row.id) ?? [],
      signatures: signaturesByOrder.get(row.id) ?? [],
      rules,
    })
    return call.data
  }
}
