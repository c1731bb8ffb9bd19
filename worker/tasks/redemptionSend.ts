import { z } from 'zod'
import { redemptionSendJobKey } from '@/lib/jobs/jobKeys'
import type { RedemptionSendPayload } from '@/lib/jobs/payloadTypes'
import type { RedemptionRow } from '../db/lockRedemptions'
import { redemptionKind } from '../operations/redemptionKind'
import type { SendQueue } from '../operations/SendQueue'

/** redemption_send's payload as queued by the web when the last approver signs a redemption */
export const redemptionSendPayload = z.object({ redemptionId: z.guid() }) satisfies z.ZodType<RedemptionSendPayload>

/**
 * redemption_send: one signed redemption's burn through the one send path (the redemption kind,
 * docs/decisions/055-redemptions.md), its approvers' signatures verified again and the holder's freeze checked.
 * Run by the one send task (worker/tasks/sendTask.ts) and batched like every kind.
 */
export const redemptionSendQueue: SendQueue<RedemptionRow, RedemptionSendPayload> = {
  kind: redemptionKind,
  payload: redemptionSendPayload,
  idOf: (p) => p.redemptionId,
  payloadOf: (redemptionId) => ({ redemptionId }),
  jobKeyOf: redemptionSendJobKey,
}
