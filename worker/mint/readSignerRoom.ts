import { and, eq, inArray } from 'drizzle-orm'
import { signers } from '@/db/schema'
import { NoSignerError } from '@/worker/errors/signers'
import type { WorkerContext } from '../runtime/context'

/**
 * How many more transactions the roomiest of this worker's active signers may send
 * before it reaches MAX_IN_FLIGHT_PER_SIGNER: the bound minus (next_nonce - its mined
 * count on chain). A send batch takes at most this many orders; 0 means the sends wait.
 * Throws NoSignerError (transient) when this worker holds no active signer at all: that
 * is not a full signer, and must not hold the send queue back for workers that have one.
 */
export async function readSignerRoom(ctx: WorkerContext): Promise<number> {
  const candidates = [...ctx.signers.keys()]
  if (candidates.length === 0) throw new NoSignerError(ctx.chainId)
  const [rows, counts] = await Promise.all([
    ctx.db
      .select({ address: signers.address, nextNonce: signers.nextNonce })
      .from(signers)
      .where(and(eq(signers.active, true), eq(signers.chainId, ctx.chainId), inArray(signers.address, candidates))),
    Promise.all(
      candidates.map(
        async (address) =>
          [address, BigInt(await ctx.chain.getTransactionCount({ address, blockTag: 'latest' }))] as const,
      ),
    ),
  ])
  if (rows.length === 0) throw new NoSignerError(ctx.chainId)
  const mined = new Map<string, bigint>(counts)
  let best = 0
  for (const r of rows) {
    const inFlight = Number(r.nextNonce - (mined.get(r.address) ?? r.nextNonce))
    best = Math.max(best, ctx.settings.maxInFlightPerSigner - inFlight)
  }
  return best
}
