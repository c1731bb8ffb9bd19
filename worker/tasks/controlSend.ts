import { z } from 'zod'
import { controlSendJobKey } from '@/lib/jobs/jobKeys'
import type { ControlSendPayload } from '@/lib/jobs/payloadTypes'
import type { ControlChangeRow } from '../db/lockControlChanges'
import { controlChangeKind } from '../operations/controlChangeKind'
import type { SendQueue } from '../operations/SendQueue'

/** control_send's payload as queued by the web when a second admin confirms an on-chain change */
export const controlSendPayload = z.object({ changeId: z.guid() }) satisfies z.ZodType<ControlSendPayload>

/**
 * control_send: one confirmed on-chain control change's applyControlChange through the one send path (the control
 * change kind, docs/decisions/051-on-chain-control-changes.md), its admins' signatures verified again.
 * Run by the one send task (worker/tasks/sendTask.ts) and batched like every kind.
 */
export const controlSendQueue: SendQueue<ControlChangeRow, ControlSendPayload> = {
  kind: controlChangeKind,
  payload: controlSendPayload,
  idOf: (p) => p.changeId,
  payloadOf: (changeId) => ({ changeId }),
  jobKeyOf: controlSendJobKey,
}
