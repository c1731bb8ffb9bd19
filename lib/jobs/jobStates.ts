/**
 * The job states the admin sees (docs/architecture.md "Job states"). The live ones are
 * derived from graphile-worker's own table (`liveJobsSql`); `done` and `cancelled` come
 * from mintdesk's history (`job_records`), because graphile-worker deletes a job once it
 * is finished. docs/decisions/027-admin-job-states.md explains each rule.
 */
export const LIVE_JOB_STATES = ['queued', 'scheduled', 'running', 'retrying', 'dead'] as const
export const HISTORY_JOB_STATES = ['done', 'cancelled'] as const
export const JOB_STATES = [...LIVE_JOB_STATES, ...HISTORY_JOB_STATES] as const

export type LiveJobState = (typeof LIVE_JOB_STATES)[number]
export type HistoryJobState = (typeof HISTORY_JOB_STATES)[number]
export type JobState = (typeof JOB_STATES)[number]

export function isJobState(value: unknown): value is JobState {
  return typeof value === 'string' && (JOB_STATES as readonly string[]).includes(value)
}

export function isLiveJobState(value: unknown): value is LiveJobState {
  return typeof value === 'string' && (LIVE_JOB_STATES as readonly string[]).includes(value)
}

/** The states a retry applies to. */
export const RETRYABLE_JOB_STATES = ['dead', 'retrying'] as const satisfies readonly LiveJobState[]
export type RetryableJobState = (typeof RETRYABLE_JOB_STATES)[number]

/** graphile-worker 0.17's fixed lock timeout: a job locked longer is considered abandoned by `get_job`. */
export const GRAPHILE_LOCK_TIMEOUT_MS = 4 * 60 * 60 * 1000
