import {
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cloudwatchActions,
  Duration,
  type Stack,
  type aws_sns as sns,
  type aws_sqs as sqs,
} from 'aws-cdk-lib'

export type AddDeadLetterQueueAlarmParameters = {
  deadLetterQueue: sqs.IQueue
  /** the alarms' SNS topic (addQueueAlarms) */
  topic: sns.ITopic
}

/**
 * The source design's alarm: a message in the SQS dead-letter queue (depth > 0) means a
 * mint_send failed its 5th receive and waits for a person (the admin dead-letters page).
 * From SQS's own metric, so it holds even when no worker runs.
 */
export function addDeadLetterQueueAlarm(stack: Stack, p: AddDeadLetterQueueAlarmParameters): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(stack, 'SqsDeadLetterQueueAlarm', {
    alarmDescription:
      'A mint_send message reached the SQS dead-letter queue after its 5th failed receive (QUEUE_TRANSPORT=sqs). See /admin/dead: fix the cause, then retry it.',
    metric: p.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      statistic: cloudwatch.Stats.MAXIMUM,
      period: Duration.minutes(1),
    }),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  alarm.addAlarmAction(new cloudwatchActions.SnsAction(p.topic))
  alarm.addOkAction(new cloudwatchActions.SnsAction(p.topic))
  return alarm
}
