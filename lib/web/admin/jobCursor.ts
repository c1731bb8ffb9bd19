import { ValidationError } from '@/lib/web/errors/request'

/**
 * The jobs list's keyset cursor: the id of the last job of a page, opaque to clients
 * (base64url of `j:<id>`), so the next page is `job_id < id` on an index, never an OFFSET.
 */
export function encodeJobCursor(jobId: bigint): string {
  return Buffer.from(`j:${jobId.toString()}`, 'utf8').toString('base64url')
}

/** job ids are Postgres bigints: a larger number would reach the query and fail there (a 500) */
const MAX_JOB_ID = 9_223_372_036_854_775_807n

/**
 * The job id in a cursor; a cursor that was not made by
 * `encodeJobCursor` (or past the bigint range) -> 422 on `cursor`.
 */
export function decodeJobCursor(cursor: string): bigint {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  const match = /^j:(\d{1,19})$/.exec(text)
  const jobId = match?.[1] ? BigInt(match[1]) : null
  if (jobId === null || jobId > MAX_JOB_ID)
    throw new ValidationError([{ path: 'cursor', message: 'not a cursor from this list' }])
  return jobId
}
