import { type SQL, sql } from 'drizzle-orm'
import type { TASK } from '@/lib/jobs/jobKeys'

/**
 * A condition: the operation (a uuid expression, e.g. `sn.order_id`) has a send job of `task` (mint_send,
 * control_send, compliance_send) that may still run, found by its job key (`<task>:<id>`, as mintSendJobKey,
 * built in SQL): held by a worker (a batch may be signing its nonce right now) or with attempts left. While
 * it exists, the operation's reserved nonce is its to sign, not the nonce health check's to
 * release.
 */
export function hasLiveSendJobSql(p: {
  id: SQL
  task: typeof TASK.mintSend | typeof TASK.controlSend | typeof TASK.complianceSend | typeof TASK.redemptionSend
}): SQL {
  return sql`exists (
    select 1 from graphile_worker._private_jobs j
    where j.key = ${`${p.task}:`} || ${p.id}::text and (j.locked_at is not null or j.attempts < j.max_attempts)
  )`
}
