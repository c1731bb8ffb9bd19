import type { Tx } from '@/db/client'
import { type EnsureJobReturnType, ensureJob } from '@/lib/jobs/ensureJob'
import { SIGNER_CONFIRM_PRIORITY, signerConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import { lockConfirmer } from '../db/lockConfirmer'
import type { WorkerContext } from '../runtime/context'
import type { SignerConfirmPayload } from '../tasks/signerConfirm'

export type EnsureConfirmerParameters = {
  signerAddress: string
  actor: string
  /** why, for the timeline of a new or revived confirmer */
  detail: string
}

/**
 * Makes sure the signer has its ONE signer_confirm, in the caller's transaction and
 * under the signer's confirmer lock: added (to run now, ahead of waiting sends) when
 * there is none, revived when it is a dead letter, left alone when it waits or runs
 * (its next pass reads every submitted order of the signer).
 */
export async function ensureConfirmer(
  tx: Tx,
  ctx: WorkerContext,
  { signerAddress, actor, detail }: EnsureConfirmerParameters,
): Promise<EnsureJobReturnType> {
  await lockConfirmer(tx, { signerAddress })
  return ensureJob(tx, {
    task: TASK.signerConfirm,
    jobKey: signerConfirmJobKey(signerAddress),
    payload: { signer: signerAddress } satisfies SignerConfirmPayload,
    priority: SIGNER_CONFIRM_PRIORITY,
    maxAttempts: ctx.settings.maxAttempts,
    actor,
    detail,
    revive: true,
  })
}
