import type { JobState } from '@/lib/jobs/jobStates'

/** Which buttons a job gets; the API enforces the same rules (409 otherwise). */
export function canRetry(state: JobState): boolean {
  return state === 'dead' || state === 'retrying'
}

/** A running job cannot be cancelled (a worker holds it); a finished one has nothing left to stop. */
export function canCancel(state: JobState): boolean {
  return state === 'queued' || state === 'scheduled' || state === 'retrying' || state === 'dead'
}
