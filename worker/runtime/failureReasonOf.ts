import { isBaseError } from '@/lib/errors/BaseError'
import { JOB_ERROR_CODES, type JobErrorCode } from '@/lib/errors/jobs'

const KNOWN: ReadonlySet<string> = new Set(JOB_ERROR_CODES)

/**
 * The stable code of what made a job's attempt fail, for the order's events (webhooks and
 * email say why with it, never with the message): the error's own code when it is one of
 * the worker's (lib/errors/jobs.ts JOB_ERROR_CODES), else `job_failed` (a failure nobody
 * classified: a node's or the database's error, a bug).
 *
 * @example
 * failureReasonOf(new NonceConsumedError(signer, 7n)) // 'nonce_consumed'
 * failureReasonOf(new Error('socket hang up')) // 'job_failed'
 */
export function failureReasonOf(error: unknown): JobErrorCode {
  if (isBaseError(error) && KNOWN.has(error.code)) return error.code as JobErrorCode
  return 'job_failed'
}
