import { type Address, getAddress, type Hex } from 'viem'
import type { DbOrTx } from '@/db/client'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { ApprovalMissingError } from '@/lib/errors/approvals'
import { listRedemptionBars } from '@/lib/redemption/listRedemptionBars'
import type { MinterRules } from '../../approvals/readMinterRules'
import { listRedemptionSignatures } from '../../db/listRedemptionSignatures'
import type { RedemptionRow } from '../../db/lockRedemptions'
import type { WorkerContext } from '../../runtime/context'
import { buildBurnCall } from './buildBurnCall'

/** What building a batch of burns reads from the chain once. */
export type BurnChainRules = MinterRules & { redemptionAddress: string }

/** GoldMinter's redemption address beside its approver rules. */
export async function readRedemptionAddress(ctx: Pick<WorkerContext, 'chain' | 'minterAddress'>): Promise<Address> {
  return ctx.chain.readContract({ address: ctx.minterAddress, abi: goldMinterAbi, functionName: 'redemptionAddress' })
}

/**
 * The calldata of each redemption's burn, from the chain's rules given and the redemptions' bars and signatures
 * read once through `db` (buildBurnCall; a refusal rejects that redemption's promise only). A holder the token
 * has frozen since is refused too: a frozen holder's deposit is not redeemed.
 */
export async function prepareBurnCalls(
  ctx: WorkerContext,
  db: DbOrTx,
  p: { rows: readonly RedemptionRow[]; rules: BurnChainRules },
): Promise<PromiseSettledResult<Hex>[]> {
  const ids = p.rows.map((r) => r.id)
  const [bars, signatures] = await Promise.all([listRedemptionBars(db, { ids }), listRedemptionSignatures(db, { ids })])
  return Promise.allSettled(
    p.rows.map(async (redemption) => {
      const frozen = await ctx.chain.readContract({
        address: ctx.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'isFrozen',
        args: [getAddress(redemption.holderAddress)],
      })
      if (frozen)
        throw new ApprovalMissingError(
          `the holder ${redemption.holderAddress} of redemption ${redemption.id} is frozen`,
        )
      const call = await buildBurnCall(ctx, {
        redemption,
        bars: bars.get(redemption.id) ?? [],
        signatures: signatures.get(redemption.id) ?? [],
        rules: p.rules,
        redemptionAddress: p.rules.redemptionAddress,
      })
      return call.data
    }),
  )
}
