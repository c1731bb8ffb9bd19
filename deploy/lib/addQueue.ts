import { Duration, aws_iam as iam, type Stack, aws_sqs as sqs } from 'aws-cdk-lib'

/** receives before SQS moves a mint_send message to the dead-letter queue (the source design's 5) */
export const SQS_MAX_RECEIVE_COUNT = 5
/** the queue's visibility timeout; the worker's heartbeat extends it every third while it works */
export const SQS_VISIBILITY_TIMEOUT = Duration.seconds(60)

export type AddQueueParameters = {
  /** the worker's task role: the only principal that talks to SQS (relay, consumer, DLQ scan) */
  workerRole: iam.IRole
}

export type AddQueueReturnType = { queue: sqs.Queue; deadLetterQueue: sqs.Queue }

/**
 * QUEUE_TRANSPORT=sqs: the mint_send queue and its dead-letter
 * queue, the redrive policy (maxReceiveCount 5) set here on the queue, not by any code
 * path; both encrypted with SQS-managed keys and TLS-only (enforceSSL); the DLQ keeps a
 * message 14 days, the most SQS allows. The worker's role may send (the outbox relay and a
 * retried dead letter moved back), receive, extend, delete and read attributes on the
 * queue, and receive, release and delete on the DLQ (the scan and the retry); the web gets
 * nothing: it writes the outbox in Postgres and asks the worker for retries.
 */
export function addQueue(stack: Stack, p: AddQueueParameters): AddQueueReturnType {
  const deadLetterQueue = new sqs.Queue(stack, 'MintSendDeadLetterQueue', {
    retentionPeriod: Duration.days(14),
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  })
  const queue = new sqs.Queue(stack, 'MintSendQueue', {
    visibilityTimeout: SQS_VISIBILITY_TIMEOUT,
    retentionPeriod: Duration.days(14),
    receiveMessageWaitTime: Duration.seconds(20),
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: SQS_MAX_RECEIVE_COUNT },
  })
  p.workerRole.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: 'MintSendQueue',
      actions: [
        'sqs:SendMessage',
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
      ],
      resources: [queue.queueArn],
    }),
  )
  p.workerRole.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: 'MintSendDeadLetterQueue',
      actions: ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
      resources: [deadLetterQueue.queueArn],
    }),
  )
  return { queue, deadLetterQueue }
}
