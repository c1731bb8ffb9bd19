import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type UnlockStaleWorkersParameters = {
  /** the sweeping worker, never unlocked by itself */
  selfId: string
  staleAfterMs: number
}

export type UnlockedJob = {
  jobId: bigint
  task: string
  lockedBy: string
  attempts: number
  maxAttempts: number
  payload: unknown
  lastSeenAt: Date | null
  /**
   * Its key was taken over while it ran (graphile-worker 0.17's add_job of a running job's
   * key clears the key and sets attempts to max_attempts), before the run could let go of
   * the key itself (lib/jobs/detachRunningJobKey.ts, the coalescing jobs' first step). Told
   * by attempts that jumped past the attempt our history saw start; its attempts are put
   * back to that run's, as detachRunningJobKey would have: a killed run, not a dead letter.
   */
  takenOver: boolean
}

export type UnlockStaleWorkersReturnType = { jobs: UnlockedJob[]; workerIds: string[] }

/**
 * Frees the jobs of workers that stopped heartbeating, with
 * graphile_worker.force_unlock_workers (graphile-worker alone would wait 4 hours). A
 * worker is stale when its row's last_seen_at is older than staleAfterMs or the row
 * says stopped; a `locked_by` without any row (a worker that died before its first
 * heartbeat) counts once its lock is older than staleAfterMs. Stale rows are marked
 * stopped, which also fences the worker should it come back. Must run in a transaction;
 * only one sweeper at a time does anything (advisory lock, skipped if taken). Times
 * are the database's (now()), never a worker's clock.
 */
export async function unlockStaleWorkers(
  tx: Tx,
  { selfId, staleAfterMs }: UnlockStaleWorkersParameters,
): Promise<UnlockStaleWorkersReturnType> {
  const got = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(hashtext('mintdesk:sweep')) as ok`)
  if (!got[0]?.ok) return { jobs: [], workerIds: [] }
  const stale = sql`now() - make_interval(secs => ${staleAfterMs}::double precision / 1000)`
  const rows = await tx.execute<{
    id: bigint
    task: string
    locked_by: string
    attempts: number
    max_attempts: number
    payload: unknown
    /** raw SQL through drizzle: timestamps arrive as text */
    last_seen_at: string | null
    key: string | null
    recorded_attempts: number | null
  }>(sql`
    select j.id, t.identifier as task, j.locked_by, j.attempts, j.max_attempts, j.payload, w.last_seen_at, j.key, r.attempts as recorded_attempts
    from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    left join workers w on w.id = j.locked_by
    left join job_records r on r.job_id = j.id
    where j.locked_by is not null
      and j.locked_by <> ${selfId}
      and (
        (w.id is not null and (w.stopped_at is not null or w.last_seen_at < ${stale}))
        or (w.id is null and j.locked_at < ${stale})
      )
    for update of j`)
  // the attempt our history saw start: runTask's 'running' record, or one more for a job a send batch claimed
  const takenOver = (r: (typeof rows)[number]) =>
    r.key === null &&
    r.recorded_attempts !== null &&
    r.attempts >= r.max_attempts &&
    Number(r.recorded_attempts) + 1 < Number(r.attempts)
  for (const r of rows.filter(takenOver)) {
    await tx.execute(
      sql`update graphile_worker._private_jobs set attempts = ${r.recorded_attempts}::smallint where id = ${r.id}::bigint`,
    )
  }
  const workerIds = [...new Set(rows.map((r) => r.locked_by))]
  if (workerIds.length > 0) {
    const ids = sql.join(
      workerIds.map((id) => sql`${id}`),
      sql`, `,
    )
    await tx.execute(sql`select graphile_worker.force_unlock_workers(array[${ids}]::text[])`)
  }
  await tx.execute(sql`
    update workers set stopped_at = now()
    where stopped_at is null and id <> ${selfId} and last_seen_at < ${stale}`)
  return {
    workerIds,
    jobs: rows.map((r) => ({
      jobId: BigInt(r.id),
      task: r.task,
      lockedBy: r.locked_by,
      attempts: takenOver(r) ? Number(r.recorded_attempts) : r.attempts,
      maxAttempts: r.max_attempts,
      payload: r.payload,
      lastSeenAt: r.last_seen_at === null ? null : new Date(r.last_seen_at),
      takenOver: takenOver(r),
    })),
  }
}
