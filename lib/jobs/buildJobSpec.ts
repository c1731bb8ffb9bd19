import { redactSecrets } from '@/lib/errors/redactSecrets'
import { withTraceparent } from '@/lib/telemetry/traceparent'
import type { AddJobParameters, QueueTransport } from './addJob'

/** One job as public.enqueue_job reads it (db/functions/enqueue_job.sql): its named arguments. */
export type JobSpec = {
  task: string
  /** the payload's JSON text, so the job stores exactly what was written (jsonb would reorder its keys) */
  payload: string
  transport: QueueTransport
  job_key: string | null
  queue_name: string | null
  run_at: string | null
  max_attempts: number
  priority: number | null
  flags: string[] | null
  order_id: string | null
  actor: string | null
  detail: string | null
}

/**
 * The arguments of public.enqueue_job for one job: what addJobs sends, and what the intake
 * hands to create_mint_order for its mint_send (lib/web/mint/createMintOrderArguments.ts), so
 * both enqueue the same way. The payload carries the active trace (the job's
 * attempts join the trace of the mint that added it); the detail is redacted (an RPC URL
 * carries its API key) and, for a job given a run time and no detail, says when it runs.
 */
export function buildJobSpec(p: AddJobParameters): JobSpec {
  const detail = p.detail ?? (p.runAt ? `run at ${p.runAt.toISOString()}` : null)
  return {
    task: p.task,
    payload: JSON.stringify(withTraceparent(p.payload)),
    transport: p.transport ?? 'postgres',
    job_key: p.jobKey ?? null,
    queue_name: p.queueName ?? null,
    run_at: p.runAt ? p.runAt.toISOString() : null,
    max_attempts: p.maxAttempts ?? 5,
    priority: p.priority ?? null,
    flags: p.flags ?? null,
    order_id: p.orderId ?? null,
    actor: p.actor ?? null,
    detail: detail == null ? null : redactSecrets(detail),
  }
}
