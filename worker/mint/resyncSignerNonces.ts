import { and, eq } from 'drizzle-orm'
import type { Address } from 'viem'
import { signers } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { resyncSignerNonce } from '../db/resyncSignerNonce'
import type { WorkerContext } from '../runtime/context'

export type ResyncSignerNoncesParameters = {
  /** one signer, or every signer of the chain when left out */
  signerAddress?: string
  actor: string
  jobId?: bigint | null
}

export type SignerResync = {
  address: string
  dbNonce: bigint
  chainNonce: bigint
  /** the nonces taken over, [from, to), when next_nonce was behind */
  resynced: { from: bigint; to: bigint } | null
}

export type ResyncSignerNoncesReturnType = SignerResync[]

/**
 * Every signer whose chain count (`pending`: mined and in the node's pool) is ahead of its next_nonce, as after a
 * database restore, is brought up to the chain (worker/db/resyncSignerNonce.ts) in a short transaction of its own,
 * with a 'nonce_resynced' event: nothing is signed, so no transaction can conflict with the ones the database lost.
 * A signer whose next_nonce is at or above the chain's count is left as it is. The count is read before the row
 * lock: a batch that commits meanwhile only moves next_nonce further, and the comparison is made under the lock.
 */
export async function resyncSignerNonces(
  ctx: WorkerContext,
  { signerAddress, actor, jobId = null }: ResyncSignerNoncesParameters,
): Promise<ResyncSignerNoncesReturnType> {
  const rows = await ctx.db
    .select({ address: signers.address, nextNonce: signers.nextNonce })
    .from(signers)
    .where(
      signerAddress
        ? and(eq(signers.chainId, ctx.chainId), eq(signers.address, signerAddress))
        : eq(signers.chainId, ctx.chainId),
    )
  const out: SignerResync[] = []
  for (const row of rows) {
    const chainNonce = BigInt(
      await ctx.chain.getTransactionCount({ address: row.address as Address, blockTag: 'pending' }),
    )
    const resynced = await ctx.db.transaction(async (tx) => {
      const taken = await resyncSignerNonce(tx, { signerAddress: row.address, chainCount: chainNonce })
      if (taken)
        await recordJobEvent(tx, {
          event: 'nonce_resynced',
          task: TASK.nonceResync,
          jobId,
          actor,
          detail: `${row.address}: the chain counts ${taken.to} transactions, the database had handed out ${taken.from}; nonces ${taken.from} to ${taken.to - 1n} recorded as used on chain, next nonce ${taken.to}`,
          data: { signer: row.address, from: taken.from.toString(), to: taken.to.toString() },
        })
      return taken
    })
    if (resynced)
      ctx.log.warn(
        { signer: row.address, from: resynced.from.toString(), to: resynced.to.toString() },
        'signer nonce resynced from the chain',
      )
    out.push({ address: row.address, dbNonce: resynced ? resynced.to : row.nextNonce, chainNonce, resynced })
  }
  return out
}
