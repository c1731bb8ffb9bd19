import { mintKind } from '../operations/mintKind'
import type { WorkerContext } from '../runtime/context'
import { type SendOperationsParameters, sendOperations } from './sendOperations'
import type { SendOutcome } from './sendOutcome'

export type SendMintOrdersParameters = Omit<SendOperationsParameters<never>, 'kind'>

/**
 * A batch of mint orders through the one send path (sendOperations with the mint kind): what the
 * graphile-worker mint_send task's batcher and the SQS consumer call.
 */
export function sendMintOrders(ctx: WorkerContext, p: SendMintOrdersParameters): Promise<Map<string, SendOutcome>> {
  return sendOperations(ctx, { ...p, kind: mintKind })
}
