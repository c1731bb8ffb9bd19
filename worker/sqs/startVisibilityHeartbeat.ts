import { ChangeMessageVisibilityBatchCommand, type SQSClient } from '@aws-sdk/client-sqs'

export type StartVisibilityHeartbeatParameters = {
  queueUrl: string
  /** the receipt handles of the messages still in hand, asked at each beat */
  receiptHandles: () => readonly string[]
  visibilityTimeoutS: number
  /** an entry SQS refused, or a whole call that failed */
  onError: (err: unknown) => void
}

/**
 * Keeps the messages of a receive hidden while they are worked (the source design's rule:
 * visibility must outlast the work, or another worker receives them): every third of the
 * timeout their visibility is set to the full timeout again, ChangeMessageVisibilityBatch of
 * up to 10 entries a call, so a missed beat or two still leaves time. An entry SQS refuses
 * (its handle expired: the message may already be another worker's) is reported and beaten
 * again at the next beat; the handler's gate under the job's row lock keeps a message worked
 * twice from running twice. If this process dies, the beats stop and the messages come back
 * within one timeout.
 */
export function startVisibilityHeartbeat(
  client: SQSClient,
  p: StartVisibilityHeartbeatParameters,
): { stop: () => Promise<void> } {
  let beating: Promise<unknown> = Promise.resolve()
  const beat = async () => {
    const handles = p.receiptHandles()
    for (let i = 0; i < handles.length; i += 10) {
      const chunk = handles.slice(i, i + 10)
      const result = await client.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: p.queueUrl,
          Entries: chunk.map((receiptHandle, j) => ({
            Id: String(j),
            ReceiptHandle: receiptHandle,
            VisibilityTimeout: p.visibilityTimeoutS,
          })),
        }),
      )
      for (const failed of result.Failed ?? [])
        p.onError(new Error(`visibility change refused: ${failed.Code}: ${failed.Message ?? ''}`))
    }
  }
  const timer = setInterval(
    () => {
      beating = beat().catch(p.onError)
    },
    Math.max(200, Math.floor((p.visibilityTimeoutS * 1000) / 3)),
  )
  return {
    stop: async () => {
      clearInterval(timer)
      await beating
    },
  }
}
