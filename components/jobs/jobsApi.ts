import type { JobState } from '@/lib/jobs/jobStates'
import type {
  ApiCancelResult,
  ApiChainTx,
  ApiJob,
  ApiJobDetail,
  ApiJobList,
  ApiJobOrder,
  ApiRetriedJob,
  ApiRetryResult,
  ApiTimelineEvent,
} from '@/lib/web/admin/apiTypes'
import { ApiError } from '@/lib/web/errors/api'

/**
 * The jobs pages' one boundary with the admin API: fetch helpers that throw `ApiError`
 * (with the HTTP status, so React Query does not retry a 4xx) and the converters from
 * API data (strings) to app data (Dates), River UI's `apiJobToJob` habit.
 */

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, {
    cache: 'no-store',
    ...init,
    headers: { accept: 'application/json', ...init?.headers },
  })
  if (!res.ok) throw await ApiError.from(res)
  return (await res.json()) as T
}

function postJson<T>(url: string, body?: unknown): Promise<T> {
  return fetchJson<T>(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

const date = (s: string) => new Date(s)
const maybeDate = (s: string | null) => (s === null ? null : new Date(s))

export type Job = Omit<ApiJob, 'runAt' | 'lockedAt' | 'createdAt' | 'updatedAt' | 'finishedAt'> & {
  runAt: Date | null
  lockedAt: Date | null
  createdAt: Date
  updatedAt: Date
  finishedAt: Date | null
}

export function apiJobToJob(a: ApiJob): Job {
  return {
    ...a,
    runAt: maybeDate(a.runAt),
    lockedAt: maybeDate(a.lockedAt),
    createdAt: date(a.createdAt),
    updatedAt: date(a.updatedAt),
    finishedAt: maybeDate(a.finishedAt),
  }
}

export type TimelineEvent = Omit<ApiTimelineEvent, 'at'> & { at: Date }
export type JobOrder = Omit<ApiJobOrder, 'createdAt' | 'updatedAt' | 'submittedAt' | 'confirmedAt'> & {
  createdAt: Date
  updatedAt: Date
  submittedAt: Date | null
  confirmedAt: Date | null
}
export type ChainTx = Omit<ApiChainTx, 'createdAt' | 'broadcastAt'> & { createdAt: Date; broadcastAt: Date | null }

export type JobDetail = {
  job: Job & { payload: unknown; key: string | null; priority: number | null; live: boolean }
  errors: { at: Date; attempt: number | null; message: string; stack: string | null }[]
  timeline: TimelineEvent[]
  order: JobOrder | null
  transactions: ChainTx[]
  nonces: ApiJobDetail['nonces']
  relatedJobs: ApiJobDetail['relatedJobs']
}

export function apiJobDetailToJobDetail(a: ApiJobDetail): JobDetail {
  return {
    job: { ...apiJobToJob(a.job), payload: a.job.payload, key: a.job.key, priority: a.job.priority, live: a.job.live },
    errors: a.errors.map((e) => ({ ...e, at: date(e.at) })),
    timeline: a.timeline.map((e) => ({ ...e, at: date(e.at) })),
    order: a.order
      ? {
          ...a.order,
          createdAt: date(a.order.createdAt),
          updatedAt: date(a.order.updatedAt),
          submittedAt: maybeDate(a.order.submittedAt),
          confirmedAt: maybeDate(a.order.confirmedAt),
        }
      : null,
    transactions: a.transactions.map((t) => ({
      ...t,
      createdAt: date(t.createdAt),
      broadcastAt: maybeDate(t.broadcastAt),
    })),
    nonces: a.nonces,
    relatedJobs: a.relatedJobs,
  }
}

/** the jobs list's filters; `housekeeping: true` asks for the housekeeping tasks' routine jobs too */
export type JobFilters = { state?: JobState; task?: string; q?: string; housekeeping?: true }

export function jobsUrl(filters: JobFilters, cursor?: string | null, limit?: number): string {
  const params = new URLSearchParams()
  if (filters.state) params.set('state', filters.state)
  if (filters.task) params.set('task', filters.task)
  if (filters.q) params.set('q', filters.q)
  if (filters.housekeeping) params.set('housekeeping', 'show')
  if (cursor) params.set('cursor', cursor)
  if (limit) params.set('limit', String(limit))
  const qs = params.toString()
  return qs ? `/api/admin/jobs?${qs}` : '/api/admin/jobs'
}

export async function fetchJobs(filters: JobFilters, cursor?: string | null, limit?: number) {
  const list = await fetchJson<ApiJobList>(jobsUrl(filters, cursor, limit))
  return { items: list.items.map(apiJobToJob), nextCursor: list.nextCursor }
}

export async function fetchJobDetail(jobId: string): Promise<JobDetail> {
  return apiJobDetailToJobDetail(await fetchJson<ApiJobDetail>(`/api/admin/jobs/${encodeURIComponent(jobId)}`))
}

export function retryJob(jobId: string): Promise<ApiRetriedJob & { state: 'queued' }> {
  return postJson(`/api/admin/jobs/${encodeURIComponent(jobId)}/retry`)
}

export function cancelJob(jobId: string): Promise<ApiCancelResult> {
  return postJson(`/api/admin/jobs/${encodeURIComponent(jobId)}/cancel`)
}

export function retryJobs(
  body: { jobIds: string[] } | { state: 'dead' | 'retrying'; task?: string },
): Promise<ApiRetryResult> {
  return postJson('/api/admin/jobs/retry', body)
}
