import { decodeFunctionData, getAddress, isAddress } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { buildMintIntent } from '@/lib/mint/buildMintIntent'
import { listOrderBars } from '../../db/listOrderBars'
import { readMintOrderRow } from '../../db/readMintOrderRow'
import type { StoredCallCheck } from '../OperationKind'

/**
 * A mint's stored calldata must be attestAndMint whose intent is exactly the order's MintIntent
 * rebuilt from the order and its bars (buildMintIntent: id, recipient, the bars' fine weight and
 * hash, the deadline). The signatures in it were verified when it was first signed, and the
 * contract verifies them again.
 */
export const checkStoredMintCall: StoredCallCheck = async (ctx, { id, data, refuse }) => {
  const order = await readMintOrderRow(ctx.db, { orderId: id })
  if (!order) return refuse(`its order ${id} does not exist`)
  if (!isAddress(order.toAddress, { strict: false }))
    refuse(`the order's recipient ${order.toAddress} is not an address`)
  const bars = await ctx.db.transaction((t) => listOrderBars(t, { orderId: order.id }))
  const expected = buildMintIntent({
    orderId: order.id,
    to: order.toAddress,
    bars: bars.filter((b) => b.ofOrder),
    deadline: order.intentDeadline,
  })
  let intent: typeof expected | undefined
  try {
    const call = decodeFunctionData({ abi: goldMinterAbi, data })
    if (call.functionName === 'attestAndMint') intent = call.args[3]
  } catch {
    intent = undefined
  }
  if (
    !intent ||
    intent.orderId.toLowerCase() !== expected.orderId ||
    getAddress(intent.to) !== expected.to ||
    intent.amount !== expected.amount ||
    intent.barsHash.toLowerCase() !== expected.barsHash.toLowerCase() ||
    intent.deadline !== expected.deadline
  )
    refuse(
      "its calldata is not attestAndMint of the order's intent (id, recipient, its bars' amount and hash, deadline)",
    )
}
