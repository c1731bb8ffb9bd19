import { aws_cloudwatch as cloudwatch, aws_cloudwatch_actions as cloudwatchActions, aws_logs as logs, aws_sns as sns, aws_sns_subscriptions as snsSubscriptions, Duration, type Stack } from 'aws-cdk-lib'
import { QUEUE_METRICS, QUEUE_METRICS_MESSAGE, QUEUE_METRICS_NAMESPACE } from '../../lib/ops/emitQueueMetrics'

export type AddQueueAlarmsParameters = {
  /** the workers' log group: each worker writes the `queue_metrics` line there */
  workerLogs: logs.ILogGroup
  /** where the alarms are mailed; none: the SNS topic only */
  alarmEmail?: string
  /** alarm when a ready job has waited longer than this (seconds, 3 minutes in a row) */
  oldestQueuedAgeAlarmSeconds?: number
}

export type QueueAlarms = { topic: sns.Topic; deadLetters: cloudwatch.Alarm; oldestQueuedAge: cloudwatch.Alarm; feeCappedOrders: cloudwatch.Alarm }

/**
 * The alarms, from metric filters on the worker's `queue_metrics` log line
 * (lib/ops/emitQueueMetrics.ts): dead letters > 0, the oldest queued job's age (or no
 * worker reporting at all), and orders held back by the fee ceiling for 10 minutes. All
 * notify an SNS topic, on alarm and on recovery.
 */
export function addQueueAlarms(stack: Stack, p: AddQueueAlarmsParameters): QueueAlarms {
  const topic = new sns.Topic(stack, 'Alarms', { displayName: 'mintdesk alarms' })
  if (p.alarmEmail) topic.addSubscription(new snsSubscriptions.EmailSubscription(p.alarmEmail))
  const queueMetric = (key: keyof typeof QUEUE_METRICS) => {
    const m = QUEUE_METRICS[key]
    const filter = new logs.MetricFilter(stack, `${m.metricName}Filter`, {
      logGroup: p.workerLogs,
      filterPattern: logs.FilterPattern.stringValue('$.msg', '=', QUEUE_METRICS_MESSAGE),
      metricNamespace: QUEUE_METRICS_NAMESPACE,
      metricName: m.metricName,
      metricValue: `$.${m.field}`,
      unit: m.unit === 'Count' ? cloudwatch.Unit.COUNT : cloudwatch.Unit.SECONDS,
    })
    // every worker reports the same queue: the worst report of the minute counts
    return filter.metric({ statistic: cloudwatch.Stats.MAXIMUM, period: Duration.minutes(1) })
  }
  const deadLetters = new cloudwatch.Alarm(stack, 'DeadLettersAlarm', {
    alarmDescription: 'A mint job exhausted its attempts: it waits in the dead letters (/admin/dead) for an admin to retry or cancel it.',
    metric: queueMetric('deadLetters'),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  const maxAge = p.oldestQueuedAgeAlarmSeconds ?? 300
  const oldestQueuedAge = new cloudwatch.Alarm(stack, 'OldestQueuedJobAgeAlarm', {
    alarmDescription: `A ready job has waited over ${maxAge} s for 3 minutes, or no worker has reported the queue for 3 minutes: workers down, stuck or too few.`,
    metric: queueMetric('oldestQueuedAgeSeconds'),
    threshold: maxAge,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 3,
    // the line comes from the workers: silence means none is running
    treatMissingData: cloudwatch.TreatMissingData.BREACHING,
  })
  const feeCappedOrders = new cloudwatch.Alarm(stack, 'FeeCappedOrdersAlarm', {
    alarmDescription:
      'Mints have been held back by the fee ceiling (MAX_FEE_PER_GAS / MAX_PRIORITY_FEE) for 10 minutes: the chain asks for more. Nothing is paid above the ceiling; raise it (worker environment, then redeploy) or wait for the fees to fall (the fee_capped events on /admin).',
    metric: queueMetric('feeCappedOrders'),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 10,
    datapointsToAlarm: 10,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  for (const alarm of [deadLetters, oldestQueuedAge, feeCappedOrders]) {
    alarm.addAlarmAction(new cloudwatchActions.SnsAction(topic))
    alarm.addOkAction(new cloudwatchActions.SnsAction(topic))
  }
  return { topic, deadLetters, oldestQueuedAge, feeCappedOrders }
}
