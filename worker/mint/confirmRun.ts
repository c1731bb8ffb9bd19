import { TASK } from '@/lib/jobs/jobKeys'
import type { TaskRun } from '../runtime/runTask'

/** A run of mint_confirm, as its steps (worker/mint/*) see it. */
export type ConfirmRun = TaskRun<{ orderId: string; poll?: number }>

/** The fields every timeline event of a mint_confirm run carries. */
export function confirmEventOf(job: ConfirmRun) {
  return { task: TASK.mintConfirm, orderId: job.payload.orderId, jobId: job.jobId, attempt: job.attempt, actor: job.actor }
}
