import type { Tx } from '@/db/client'
import type { WorkerContext } from '../runtime/context'
import { ensureConfirmer } from './ensureConfirmer'

export type StartConfirmingParameters = {
  /** orders whose mint was just broadcast (status submitted, in the caller's transaction) */
  orderIds: readonly string[]
  /** the signer that sent them */
  signerAddress: string
  actor: string
}

/**
 * The hand-over from sending to confirming, in the caller's transaction (the one that
 * marks the orders submitted): the signer's ONE signer_confirm follows them
 * (ensureConfirmer: added, revived, or left to its next pass, at most CONFIRM_POLL_MS
 * away). No job per order. Under the signer's confirmer lock, so a confirmer deciding
 * to end either sees these orders or is gone before the check here
 * (docs/decisions/030-one-confirmer-per-signer.md).
 */
export async function startConfirming(
  tx: Tx,
  ctx: WorkerContext,
  { orderIds, signerAddress, actor }: StartConfirmingParameters,
): Promise<void> {
  if (orderIds.length === 0) return
  await ensureConfirmer(tx, ctx, {
    signerAddress,
    actor,
    detail: `${orderIds.length} mint(s) of ${signerAddress} broadcast`,
  })
}
