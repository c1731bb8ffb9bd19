import type { z } from 'zod'
import type { OperationKind, OperationRow } from './OperationKind'

/**
 * A kind's send task as the queue carries it (mint_send, control_send, redemption_send, compliance_send): its
 * payload, declared once and checked when a job runs or is claimed by a batch (a queued payload may come from older
 * code), and how an operation id maps to its payload and job key. One send task and one claiming batch serve them
 * all (worker/tasks/sendTask.ts, worker/mint/sendClaimingBatch.ts).
 */
export type SendQueue<Row extends OperationRow, P extends Record<string, unknown>> = {
  kind: OperationKind<Row>
  payload: z.ZodType<P>
  /** the operation a payload names */
  idOf: (payload: P) => string
  /** the payload of a follow-up job for the operation */
  payloadOf: (id: string) => P
  /** the job key of the operation's send job: one queued send job per operation */
  jobKeyOf: (id: string) => string
}
