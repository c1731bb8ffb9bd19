import { fetchJson } from '@/components/jobs/jobsApi'
import type { ApiMetrics, ApiSystem } from '@/lib/web/admin/apiTypes'

/** The dashboard's data, converted once from the API's JSON (times become Dates). */

export type Metrics = Omit<ApiMetrics, 'generatedAt' | 'oldestQueued' | 'throughput' | 'deadLetters'> & {
  generatedAt: Date
  oldestQueued: (Omit<NonNullable<ApiMetrics['oldestQueued']>, 'runAt'> & { runAt: Date }) | null
  throughput: { bucketSeconds: number; buckets: { at: Date; enqueued: number; succeeded: number; failed: number }[] }
  deadLetters: {
    count: number
    recent: (Omit<ApiMetrics['deadLetters']['recent'][number], 'updatedAt'> & { updatedAt: Date })[]
  }
}

export function apiMetricsToMetrics(a: ApiMetrics): Metrics {
  return {
    ...a,
    generatedAt: new Date(a.generatedAt),
    oldestQueued: a.oldestQueued ? { ...a.oldestQueued, runAt: new Date(a.oldestQueued.runAt) } : null,
    throughput: {
      bucketSeconds: a.throughput.bucketSeconds,
      buckets: a.throughput.buckets.map((b) => ({ ...b, at: new Date(b.at) })),
    },
    deadLetters: {
      count: a.deadLetters.count,
      recent: a.deadLetters.recent.map((d) => ({ ...d, updatedAt: new Date(d.updatedAt) })),
    },
  }
}

export type SystemStatus = Omit<ApiSystem, 'workers' | 'lowBalanceWei'> & {
  lowBalanceWei: bigint
  workers: (Omit<ApiSystem['workers'][number], 'startedAt' | 'lastSeenAt'> & { startedAt: Date; lastSeenAt: Date })[]
}

export function apiSystemToSystemStatus(a: ApiSystem): SystemStatus {
  return {
    ...a,
    lowBalanceWei: BigInt(a.lowBalanceWei),
    workers: a.workers.map((w) => ({ ...w, startedAt: new Date(w.startedAt), lastSeenAt: new Date(w.lastSeenAt) })),
  }
}

export async function fetchMetrics(): Promise<Metrics> {
  return apiMetricsToMetrics(await fetchJson<ApiMetrics>('/api/admin/metrics'))
}

export async function fetchSystemStatus(): Promise<SystemStatus> {
  return apiSystemToSystemStatus(await fetchJson<ApiSystem>('/api/admin/system'))
}

export const metricsQueryKey = ['admin', 'metrics'] as const
export const systemQueryKey = ['admin', 'system'] as const
