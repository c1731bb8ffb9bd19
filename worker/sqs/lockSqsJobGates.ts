import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { jobIdArraySql } from '@/lib/jobs/jobIdArraySql'

/** A job's state in its history (null: no row yet) and its outbox row's generation (0 without one). */
export type SqsJobGate = { state: string | null; generation: number }

export type LockSqsJobGatesParameters = { jobIds: readonly bigint[] }

/**
 * The gates of the jobs of one receive, under their history rows' locks: the job_records rows
 * FOR UPDATE first, in id order (the lock an admin's retry or cancel takes,
 * lib/web/queue/lockSqsJobs.ts, in the same order), then every job's state and generation
 * read by a statement of its own, so they are what that retry or cancel committed. Two
 * statements for the whole receive. Call inside the transaction that marks the jobs running.
 */
export async function lockSqsJobGates(tx: Tx, { jobIds }: LockSqsJobGatesParameters): Promise<Map<bigint, SqsJobGate>> {
  if (jobIds.length === 0) return new Map()
  const ids = jobIdArraySql(jobIds)
  await tx.execute(sql`select 1 from job_records where job_id = any(${ids}) order by job_id for update`)
  const rows = await tx.execute<{ job_id: string; state: string | null; generation: number | null }>(sql`
    select j.job_id::text as job_id, r.state, x.generation
    from unnest(${ids}) as j(job_id)
    left join job_records r on r.job_id = j.job_id
    left join sqs_outbox x on x.job_id = j.job_id`)
  return new Map(rows.map((r) => [BigInt(r.job_id), { state: r.state ?? null, generation: Number(r.generation ?? 0) }]))
}
