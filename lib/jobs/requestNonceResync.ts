import type { DbOrTx } from '@/db/client'
import { type AddJobReturnType, addJob } from './addJob'
import { nonceResyncJobKey, TASK } from './jobKeys'

export type RequestNonceResyncParameters = { signerAddress: string; actor: string; detail?: string }

/**
 * Adds a nonce_resync job of one signer to run now (payload `{ signerAddress }`, job key per signer: a second
 * request while one waits replaces it). The worker adds one when a broadcast is answered "nonce too low".
 */
export async function requestNonceResync(
  db: DbOrTx,
  { signerAddress, actor, detail }: RequestNonceResyncParameters,
): Promise<AddJobReturnType> {
  return addJob(db, {
    task: TASK.nonceResync,
    payload: { signerAddress },
    jobKey: nonceResyncJobKey(signerAddress),
    maxAttempts: 3,
    actor,
    detail: detail ?? null,
  })
}
