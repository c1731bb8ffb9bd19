import type { Address, PublicClient } from 'viem'
import type { DbOrTx } from '@/db/client'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { formatOz } from '@/lib/reserves/formatOz'
import { readReserveFigures } from '@/lib/reserves/readReserveFigures'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { type ReadTotalSupplyReturnType, readTotalSupply } from '@/lib/reserves/readTotalSupply'
import { NotReadyError } from '@/lib/web/errors/ops'
import type { ApiReserves } from './apiTypes'
import { readLatestReserveCheck } from './readLatestReserveCheck'
import { readRedeemedWei } from './readRedeemedWei'

export type GetReservesOrThrowParameters = {
  /** a read-only chain client (short timeout), or null when no RPC is configured */
  chain: PublicClient | null
  chainId: number | undefined
  tokenAddress: Address | undefined
  /** GoldMinter, whose redemption address the answer gives */
  minterAddress?: Address | undefined
  /** where a failed chain read is reported (the message can carry the RPC URL: server log only) */
  onChainError?: (error: unknown) => void
}

export type GetReservesOrThrowReturnType = ApiReserves

/**
 * GET /api/reserves: the on-chain supply read now beside the inventory (docs/api.md
 * "Reserves"). When the chain cannot be read, the latest reconciliation check answers
 * instead, its figures as one snapshot with its own time (`source: 'check'`, `asOf` =
 * the check's time; only the bar lists' dates are current): never the live inventory
 * beside an old supply. Neither: 503 not_ready.
 */
export async function getReservesOrThrow(
  db: DbOrTx,
  p: GetReservesOrThrowParameters,
): Promise<GetReservesOrThrowReturnType> {
  const [lastCheck, redeemedWei, redemptionAddress] = await Promise.all([
    readLatestReserveCheck(db),
    readRedeemedWei(db),
    p.chain && p.minterAddress
      ? p.chain
          .readContract({ address: p.minterAddress, abi: goldMinterAbi, functionName: 'redemptionAddress' })
          .catch((error: unknown) => {
            p.onChainError?.(error)
            return null
          })
      : null,
  ])
  const base = {
    chainId: p.chainId ?? null,
    tokenAddress: p.tokenAddress ?? null,
    redemptionAddress,
    redeemedFineOz: formatOz(redeemedWei),
    lastCheck,
  }
  let supply: ReadTotalSupplyReturnType | null = null
  if (p.chain && p.tokenAddress) {
    try {
      supply = await readTotalSupply(p.chain, { tokenAddress: p.tokenAddress })
    } catch (error) {
      p.onChainError?.(error)
    }
  }
  if (supply) {
    const f = await readReserveFigures(db, { supply, backingFrom: 'runningTotal' })
    return {
      asOf: new Date().toISOString(),
      source: 'chain',
      ...base,
      blockNumber: f.blockNumber.toString(),
      totalSupply: formatOz(f.totalSupplyWei),
      backingFineOz: formatOz(f.backingWei),
      inFlightFineOz: formatOz(f.inFlightWei),
      availableFineOz: formatOz(f.availableWei),
      missingFineOz: formatOz(f.missingWei),
      shortfallOz: formatOz(f.shortfallWei),
      status: f.status,
      barLists: f.barLists.map((l) => ({ vault: l.vault, asOf: l.asOf.toISOString() })),
    }
  }
  if (!lastCheck)
    throw new NotReadyError(
      'The token supply cannot be read from the chain right now, and no reconciliation check is recorded yet.',
    )
  // only the bar lists are shown: the held totals are the cheap ones
  const { barLists } = await readReserveTotals(db, { withFree: false })
  const { at, ageSeconds: _ageSeconds, ...figures } = lastCheck
  return {
    asOf: at,
    source: 'check',
    ...base,
    ...figures,
    barLists: barLists.map((l) => ({ vault: l.vault, asOf: l.asOf.toISOString() })),
  }
}
