import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { lockVault } from '@/lib/vault/lockVault'
import { checkMintControlsOfOrders } from '@/worker/controls/checkMintControlsOfOrders'
import { buildMintCall } from '../../approvals/buildMintCall'
import { readMinterRules } from '../../approvals/readMinterRules'
import { createBarListReader } from '../../db/createBarListReader'
import { listBarsOfOrders } from '../../db/listBarsOfOrders'
import { listOrderSignatures } from '../../db/listOrderSignatures'
import { lockMintOrders } from '../../db/lockMintOrders'
import type { MintOrder } from '../../db/readMintOrderRow'
import { checkBeforeSigning } from '../../mint/checkBeforeSigning'
import type { WorkerContext } from '../../runtime/context'
import type { SigningSession } from '../OperationKind'

/**
 * The mint kind in a send batch's reserve transaction:
 * - totalSupply and the minter's rules are asked for now, beside the transaction's BEGIN;
 * - lock: the orders (id order), then the shared locks of their vaults as read before the lock
 *   (an order's vault never changes: db/functions/mint_orders_vault_fixed.sql refuses it), issued together;
 * - check: totalSupply BEFORE the reserve totals (every token on chain at that read had its
 *   transaction stored before it, so its bars are in the totals read after it), then the
 *   totals, the orders' bars, their signatures and the mint controls' verdicts, one
 *   statement each, pipelined; per order the calldata rebuilt from the locked order
 *   (buildMintCall: every approval and the bar list verified again) and the check before
 *   signing (docs/decisions/028-check-before-signing.md). What is signed is that calldata,
 *   never the one simulated before the lock.
 */
export function openMintSigning(ctx: WorkerContext): SigningSession<MintOrder> {
  const supply = ctx.chain.readContract({ address: ctx.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  supply.catch(() => {})
  const minterRules = readMinterRules(ctx)
  minterRules.catch(() => {})
  return {
    lock: async (tx, { ids, prepared }) => {
      const vaults = [...new Set([...prepared.values()].map((r) => r.vault))].sort()
      const [rows] = await Promise.all([
        lockMintOrders(tx, { orderIds: ids, lock: true }),
        ...vaults.map((vault) => lockVault(tx, { vault, mode: 'shared' })),
      ])
      return rows
    },
    check: async (tx, { rows, prepared }) => {
      for (const row of rows) {
        const before = prepared.get(row.id)
        if (before && row.vault !== before.vault)
          throw new Error(`order ${row.id} is of vault ${row.vault}, not ${before.vault} as read before its lock`)
      }
      const totalSupplyWei = await supply
      const orderIds = rows.map((r) => r.id)
      const [totals, barsByOrder, signaturesByOrder, controls] = await Promise.all([
        readReserveTotals(tx, { withFree: false }),
        listBarsOfOrders(tx, { orderIds }),
        listOrderSignatures(tx, { orderIds }),
        checkMintControlsOfOrders(tx, {
          orders: rows.map((r) => ({ orderId: r.id, to: r.toAddress, amountWei: BigInt(r.amountWei) })),
        }),
      ])
      const reserves = { totalSupplyWei, backingWei: totals.backingWei, inFlightWei: totals.inFlightWei }
      const rules = await minterRules
      // the vaults' bar lists read once each in this transaction, for every order of the batch
      const barList = createBarListReader(tx)
      // the checks only read: issued together
      return Promise.allSettled(
        rows.map(async (order) => {
          const bars = barsByOrder.get(order.id) ?? []
          const call = await buildMintCall(ctx, tx, {
            barList,
            order,
            bars,
            signatures: signaturesByOrder.get(order.id) ?? [],
            rules,
          })
          await checkBeforeSigning(tx, {
            chain: ctx.chain,
            tokenAddress: ctx.tokenAddress,
            order,
            data: call.data,
            reserves,
            bars,
            controls: controls.get(order.id) ?? null,
          })
          return call.data
        }),
      )
    },
  }
}
