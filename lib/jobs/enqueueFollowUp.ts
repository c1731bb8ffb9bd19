import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type AddJobParameters, type AddJobReturnType, addJob } from '@/lib/jobs/addJob'

export type EnqueueFollowUpParameters = AddJobParameters & {
  /** the running job that hands over to the follow-up */
  currentJobId: bigint
  jobKey: string
}

/**
 * A short job that must look again later (order_confirm polling a receipt, the periodic
 * nonce health check) ends by adding its successor and deleting its own queue row in
 * ONE transaction: the hand-over is atomic, the slot is free at once, no attempt is
 * spent, and a crash after the commit leaves no half-finished row behind (graphile's
 * own completion then deletes nothing). Deleting first also keeps add_job from treating
 * the running job as superseded.
 */
export async function enqueueFollowUp(
  tx: Tx,
  { currentJobId, ...job }: EnqueueFollowUpParameters,
): Promise<AddJobReturnType> {
  await tx.execute(sql`delete from graphile_worker._private_jobs where id = ${currentJobId}::bigint`)
  return addJob(tx, job)
}
