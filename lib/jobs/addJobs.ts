import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { AddJobParameters } from './addJob'
import { buildJobSpec } from './buildJobSpec'

export type AddJobsParameters = readonly AddJobParameters[]

/** the job ids, in the order of the jobs given */
export type AddJobsReturnType = { jobIds: bigint[] }

/**
 * Adds jobs inside the caller's transaction (the outbox), each with its history row and
 * its 'enqueued' timeline event, in ONE statement however many jobs: the SQL function
 * public.enqueue_job (the one enqueue, which the intake's create_mint_order calls too) once
 * per job, per its transport (graphile_worker.add_job, or the SQS outbox row). A fan-out of
 * many jobs (notification dispatch) pays one round trip. The jobs are added in the order
 * given, so a job key given twice ends as its last add left it (the first add's history
 * row, queued, with the last payload), as two addJob calls would; no jobs, no statement.
 * addJob is this with one job.
 */
export async function addJobs(tx: DbOrTx, jobs: AddJobsParameters): Promise<AddJobsReturnType> {
  if (jobs.length === 0) return { jobIds: [] }
  const specs = jobs.map(buildJobSpec)
  // a lateral call is made once per row of the array, in its order (a nested loop over
  // the ordinality scan): a key repeated later replaces the job an earlier row added
  const rows = await tx.execute<{ ord: string; id: string | null }>(sql`
    select s.ord::text as ord, j.id::text as id
    from jsonb_array_elements(${JSON.stringify(specs)}::jsonb) with ordinality as s(spec, ord)
    cross join lateral public.enqueue_job(s.spec) as j(id)
    order by s.ord`)
  const jobIds = jobs.map((p, i) => {
    const row = rows[i]
    // null: graphile_worker.add_job returned no row (a worker took the keyed job meanwhile)
    if (!row || Number(row.ord) !== i + 1 || row.id === null)
      throw new Error(`enqueue_job added no job for task ${p.task}`)
    return BigInt(row.id)
  })
  return { jobIds }
}
