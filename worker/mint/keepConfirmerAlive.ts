import { countFollowedOrders } from '../db/countFollowedOrders'
import { lockConfirmer } from '../db/lockConfirmer'
import type { WorkerContext } from '../runtime/context'
import { ensureConfirmer } from './ensureConfirmer'

export type KeepConfirmerAliveParameters = { signerAddress: string; actor: string }

/**
 * The nonce health check's guard for the confirmer: a signer with submitted orders gets
 * its signer_confirm back if it is gone (cancelled by an admin) or dead (a long outage
 * used up its attempts). Returns what ensureConfirmer did, or null when nothing is in flight.
 */
export async function keepConfirmerAlive(
  ctx: WorkerContext,
  { signerAddress, actor }: KeepConfirmerAliveParameters,
): Promise<'added' | 'exists' | 'revived' | null> {
  return ctx.db.transaction(async (tx) => {
    await lockConfirmer(tx, { signerAddress })
    const following = await countFollowedOrders(tx, { signerAddress })
    if (following === 0) return null
    const { action } = await ensureConfirmer(tx, ctx, {
      signerAddress,
      actor,
      detail: `nonce health: ${following} submitted order(s) of ${signerAddress}`,
    })
    return action
  })
}
