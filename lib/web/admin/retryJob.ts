import type { DbOrTx } from '@/db/client'
import type { AdminActor } from '@/lib/admin/recordAudit'
import { JobNotRetryableError, JobRunningError } from '@/lib/web/errors/admin'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRetriedJob } from './apiTypes'
import { retryJobs } from './retryJobs'

export type RetryJobParameters = { jobId: bigint; actor: AdminActor }

export type RetryJobReturnType = ApiRetriedJob & { state: 'queued' }

/**
 * Retries one dead or retrying job (see retryJobs): 404 for an unknown job, 409
 * `job_running` while a worker holds it, 409 `job_not_retryable` in any other state.
 */
export async function retryJob(db: DbOrTx, { jobId, actor }: RetryJobParameters): Promise<RetryJobReturnType> {
  const result = await retryJobs(db, { jobIds: [jobId], actor })
  const retried = result.retried[0]
  if (retried) return { ...retried, state: 'queued' }
  const skip = result.skipped[0]
  const id = jobId.toString()
  if (!skip || skip.reason === 'not_found') throw new NotFoundError({ what: 'Job' })
  if (skip.reason === 'running') throw new JobRunningError({ jobId: id })
  throw new JobNotRetryableError({ jobId: id, state: skip.state ?? 'finished' })
}
