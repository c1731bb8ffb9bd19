import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords } from '@/db/schema'
import { withTraceparent } from '@/lib/telemetry/traceparent'
import type { AddJobParameters } from './addJob'
import { recordJobEvents } from './recordJobEvents'

export type AddJobsParameters = readonly AddJobParameters[]

/** the job ids, in the order of the jobs given */
export type AddJobsReturnType = { jobIds: bigint[] }

/** one job as the add_job statement reads it from its jsonb array (undefined spelled null) */
type JobSpec = {
  task: string
  /** the payload's JSON text, so the job stores exactly what addJob stored (jsonb would reorder its keys) */
  payload: string
  jobKey: string | null
  queueName: string | null
  maxAttempts: number
  runAt: string | null
  priority: number | null
  /** a text[] literal, as addJob has always passed it */
  flags: string | null
}

type JobRecordRow = typeof jobRecords.$inferInsert

/**
 * Adds graphile-worker jobs inside the caller's transaction (the outbox), each with its
 * history row and its 'enqueued' timeline event, in at most three statements however many
 * jobs: one calling graphile_worker.add_job once per job (the function the runtime roles may
 * execute; add_jobs would need grants of its own), one upsert of the job_records rows, one
 * insert of the events. A fan-out of many jobs paid three round trips per job as addJob
 * calls (issue: notification dispatch). The jobs are added in the order given, so a job
 * key given twice ends as its last add left it, as two addJob calls would; no jobs, no
 * statement. addJob is this with one job.
 */
export async function addJobs(tx: DbOrTx, jobs: AddJobsParameters): Promise<AddJobsReturnType> {
  if (jobs.length === 0) return { jobIds: [] }
  // the trace of the mint that adds a job goes with it (issue 17): its attempts join that trace
  const payloads = jobs.map((p) => withTraceparent(p.payload))
  const specs: JobSpec[] = jobs.map((p, i) => ({
    task: p.task,
    payload: JSON.stringify(payloads[i]),
    jobKey: p.jobKey ?? null,
    queueName: p.queueName ?? null,
    maxAttempts: p.maxAttempts ?? 5,
    runAt: p.runAt ? p.runAt.toISOString() : null,
    priority: p.priority ?? null,
    flags: p.flags ? `{${p.flags.join(',')}}` : null,
  }))
  // a lateral call is made once per row of the array, in its order (a nested loop over
  // the ordinality scan): a key repeated later replaces the job an earlier row added
  const rows = await tx.execute<{ ord: string; id: string }>(sql`
    select s.ord::text as ord, j.id::text as id
    from jsonb_array_elements(${JSON.stringify(specs)}::jsonb) with ordinality as s(spec, ord)
    cross join lateral graphile_worker.add_job(
      s.spec->>'task',
      (s.spec->>'payload')::json,
      job_key => s.spec->>'jobKey',
      queue_name => s.spec->>'queueName',
      max_attempts => (s.spec->>'maxAttempts')::int,
      run_at => (s.spec->>'runAt')::timestamptz,
      priority => (s.spec->>'priority')::int,
      flags => (s.spec->>'flags')::text[]
    ) as j
    order by s.ord`)
  const jobIds = jobs.map((p, i) => {
    const row = rows[i]
    if (!row || Number(row.ord) !== i + 1) throw new Error(`graphile_worker.add_job returned no row for task ${p.task}`)
    return BigInt(row.id)
  })

  await tx
    .insert(jobRecords)
    .values(jobRecordRows({ jobs, payloads, jobIds, now: Date.now() }))
    .onConflictDoUpdate({
      target: jobRecords.jobId,
      set: { state: 'queued', payload: sql`excluded.payload`, updatedAt: new Date(), finishedAt: null },
    })
  await recordJobEvents(
    tx,
    jobs.map((p, i) => ({
      event: 'enqueued',
      task: p.task,
      orderId: p.orderId,
      jobId: jobIds[i],
      actor: p.actor,
      detail: p.detail ?? (p.runAt ? `run at ${p.runAt.toISOString()}` : null),
    })),
  )
  return { jobIds }
}

/**
 * One job_records row per job id. A job key given twice in one call yields the same job id
 * twice (add_job replaced the waiting job), and one insert cannot upsert a row twice: the
 * row is then the first add's, 'queued' with the last add's payload, which is what the
 * first addJob's insert followed by the second's upsert leaves.
 */
function jobRecordRows(p: {
  jobs: AddJobsParameters
  payloads: Record<string, unknown>[]
  jobIds: bigint[]
  now: number
}): JobRecordRow[] {
  const byId = new Map<bigint, JobRecordRow>()
  p.jobs.forEach((job, i) => {
    const jobId = p.jobIds[i] ?? 0n
    const payload = p.payloads[i]
    const earlier = byId.get(jobId)
    if (earlier) {
      byId.set(jobId, { ...earlier, state: 'queued', payload })
      return
    }
    byId.set(jobId, {
      jobId,
      task: job.task,
      orderId: job.orderId ?? null,
      state: job.runAt && job.runAt.getTime() > p.now ? 'scheduled' : 'queued',
      attempts: 0,
      maxAttempts: job.maxAttempts ?? 5,
      payload,
    })
  })
  return [...byId.values()]
}
