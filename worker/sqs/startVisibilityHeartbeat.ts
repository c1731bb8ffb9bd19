import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs'

export type StartVisibilityHeartbeatParameters = {
  queueUrl: string
  receiptHandle: string
  visibilityTimeoutS: number
  onError: (err: unknown) => void
}

/**
 * Keeps a message hidden while it is worked (the source design's rule: visibility must
 * outlast the work, or another worker receives it): every third of the timeout the
 * visibility is set to the full timeout again, so a missed beat or two still leaves time.
 * If this process dies, the beats stop and the message comes back within one timeout.
 */
export function startVisibilityHeartbeat(
  client: SQSClient,
  p: StartVisibilityHeartbeatParameters,
): { stop: () => Promise<void> } {
  let beating: Promise<unknown> = Promise.resolve()
  const timer = setInterval(
    () => {
      beating = client
        .send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: p.queueUrl,
            ReceiptHandle: p.receiptHandle,
            VisibilityTimeout: p.visibilityTimeoutS,
          }),
        )
        .catch(p.onError)
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
