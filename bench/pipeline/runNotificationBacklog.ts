import type postgres from 'postgres'
import { TASK } from '../../lib/jobs/jobKeys'
import { sleep } from '../system/clock'
import type { ProcessGroupsSource } from '../system/processGroups'
import { type CpuUsage, startCpuMeter } from '../system/startCpuMeter'

export type NotificationBacklogResult = {
  /** email rows (one event to one address) sent, webhooks delivered over the window */
  emails: number
  /** the messages those rows went in (several events of one address share a digest) */
  messages: number
  webhooks: number
  /** notification jobs queued when the window began */
  queuedAtStart: number
  seconds: number
  /** false: the timeout came first (the report says how many were left) */
  settled: boolean
  left: number
  cpu: CpuUsage
}

export type RunNotificationBacklogParameters = { sql: postgres.Sql; groups: ProcessGroupsSource; timeoutMs: number }

const NOTIFY_TASKS = [TASK.notifyDispatch, TASK.emailSend, TASK.webhookDeliver]

/**
 * The notifications the drains left behind, sent by the running worker(s) before the paced
 * run, so that it does not share the machine with them: the email of each confirmed order to
 * its requester, a requester's several in one digest. They run after the mint jobs (priority 10), so a drain's window,
 * which ends at its last confirmation, holds few of them; this window measures what they
 * cost. It ends when no notification job is queued or running and no event waits for its
 * dispatch (or at the timeout).
 */
export async function runNotificationBacklog({
  sql,
  groups,
  timeoutMs,
}: RunNotificationBacklogParameters): Promise<NotificationBacklogResult> {
  const counts = async () => {
    const [row] = await sql<
      { jobs: number; undispatched: number; emails: number; messages: number; webhooks: number }[]
    >`
      select
        (select count(*)::int from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = any(${NOTIFY_TASKS}::text[]) and j.attempts < j.max_attempts) as jobs,
        (select count(*)::int from notification_events where dispatched_at is null) as undispatched,
        (select count(*)::int from email_deliveries where status = 'sent') as emails,
        (select count(distinct message_id)::int from email_deliveries where status = 'sent') as messages,
        (select count(*)::int from webhook_deliveries where status = 'delivered') as webhooks`
    if (!row) throw new Error('runNotificationBacklog: no counts')
    return row
  }
  const started = performance.now()
  const meter = startCpuMeter({ groups })
  const first = await counts()
  const deadline = Date.now() + timeoutMs
  let last = first
  while (last.jobs + last.undispatched > 0 && Date.now() < deadline) {
    await sleep(250)
    last = await counts()
  }
  const cpu = meter.stop()
  return {
    emails: last.emails - first.emails,
    messages: last.messages - first.messages,
    webhooks: last.webhooks - first.webhooks,
    queuedAtStart: first.jobs,
    seconds: (performance.now() - started) / 1000,
    settled: last.jobs + last.undispatched === 0,
    left: last.jobs + last.undispatched,
    cpu,
  }
}
