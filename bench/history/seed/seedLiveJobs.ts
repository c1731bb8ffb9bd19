import type { SeedPart } from './historyVolume'

/**
 * What the triggers and graphile-worker would have written, outside the replica session: the backing running total
 * (vault_backing_deltas: one row, the backing bars' weight), the last weeks' dead letters (failed orders' sends,
 * attempts used up) and the live tail's queued jobs in graphile-worker's table, each with its history row.
 */
export async function seedLiveJobs({ sql, sizes, step }: SeedPart): Promise<void> {
  const n = sizes.orders
  const deadLetters = sizes.deadLetters
  await step('the backing running total', () =>
    sql.unsafe(`
      insert into vault_backing_deltas (fine_oz, at)
      select coalesce(sum(fine_oz), 0), now() - interval '365 days' from vault_bars where status = 'backing'`),
  )
  await step(`${deadLetters} dead letters and the live jobs in graphile-worker`, async () => {
    await sql.unsafe(`select setval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'), ${2 * n + 10})`)
    await sql.unsafe(`
      with recent as (
        select id, failure_reason from mint_orders where status = 'failed' order by created_at desc limit ${deadLetters}
      ), added as (
        select r.id as order_id, r.failure_reason, (graphile_worker.add_job('mint_send',
          json_build_object('orderId', r.id), max_attempts => 5, job_key => 'mint_send:' || r.id)).id as job_id
        from recent r
      )
      insert into job_records (job_id, task, order_id, state, attempts, max_attempts, last_error, payload, created_at,
        updated_at)
      select a.job_id, 'mint_send', a.order_id, 'dead', 5, 5, a.failure_reason, jsonb_build_object('orderId', a.order_id),
        now() - interval '2 days', now() - interval '1 day'
      from added a`)
    // a statement sees none of the rows its own add_job calls insert: the attempts are used up in the next one
    await sql.unsafe(`
      update graphile_worker._private_jobs j set attempts = 5, last_error = r.last_error, run_at = now() - interval '1 day'
      from job_records r where r.job_id = j.id and r.state = 'dead'`)
    await sql.unsafe(`
      with live as (
        select id, status from mint_orders where status in ('pending', 'submitted')
      ), added as (
        select l.id as order_id, l.task, (graphile_worker.add_job(l.task, json_build_object('orderId', l.id),
          max_attempts => 5, run_at => now() + interval '10 minutes', job_key => l.task || ':' || l.id)).id as job_id
        from (select id, case status when 'pending' then 'mint_send' else 'order_confirm' end as task from live) l
      )
      insert into job_records (job_id, task, order_id, state, attempts, max_attempts, payload, created_at, updated_at)
      select a.job_id, a.task, a.order_id,
        'queued', 0, 5, jsonb_build_object('orderId', a.order_id), now(), now()
      from added a`)
  })
}
