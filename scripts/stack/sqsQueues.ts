import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs'

export type CreateMintSendQueuesParameters = {
  queueName: string
  visibilityTimeoutS: number
  /** receives before SQS moves a message to the DLQ: 5, as in the source design */
  maxReceiveCount: number
}

/**
 * The mint_send queue and its dead-letter queue, the redrive policy set on the queue
 * (where CloudFormation sets it in production, deploy/lib/addQueue.ts). The DLQ keeps a
 * message 14 days, the longest SQS allows: a dead letter waits for a person.
 */
export async function createMintSendQueues(
  client: SQSClient,
  p: CreateMintSendQueuesParameters,
): Promise<{ queueUrl: string; dlqUrl: string }> {
  const dlq = await client.send(
    new CreateQueueCommand({
      QueueName: `${p.queueName}-dlq`,
      Attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) },
    }),
  )
  if (!dlq.QueueUrl) throw new Error('CreateQueue returned no URL for the DLQ')
  const attrs = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  )
  const dlqArn = attrs.Attributes?.QueueArn
  if (!dlqArn) throw new Error('the DLQ has no ARN')
  const queue = await client.send(
    new CreateQueueCommand({
      QueueName: p.queueName,
      Attributes: {
        VisibilityTimeout: String(p.visibilityTimeoutS),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: p.maxReceiveCount }),
      },
    }),
  )
  if (!queue.QueueUrl) throw new Error('CreateQueue returned no URL for the queue')
  return { queueUrl: queue.QueueUrl, dlqUrl: dlq.QueueUrl }
}
