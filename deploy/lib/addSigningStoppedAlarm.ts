import {
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cloudwatchActions,
  Duration,
  aws_logs as logs,
  type Stack,
  type aws_sns as sns,
} from 'aws-cdk-lib'
import {
  RESERVE_METRICS,
  RESERVE_METRICS_MESSAGE,
  RESERVE_METRICS_NAMESPACE,
} from '../../worker/reserves/reserveMetrics'

export type AddSigningStoppedAlarmParameters = {
  /** the workers' log group: every reserve check's `reserve_metrics` line says whether signing is stopped */
  workerLogs: logs.ILogGroup
  /** the alarms' SNS topic (addQueueAlarms) */
  topic: sns.ITopic
}

/**
 * An alarm while the stop switch is on (docs/decisions/052-stop-switch.md): no worker signs, so every mint, burn and
 * compliance operation waits until a second admin resumes. From a metric filter on the `signingStopped` field of the
 * `reserve_metrics` line (worker/reserves/reserveMetrics.ts), written at every reserve check (RESERVE_CHECK_MS); OK
 * again at the first check after the resume.
 */
export function addSigningStoppedAlarm(stack: Stack, p: AddSigningStoppedAlarmParameters): cloudwatch.Alarm {
  const m = RESERVE_METRICS.signingStopped
  const filter = new logs.MetricFilter(stack, `${m.metricName}Filter`, {
    logGroup: p.workerLogs,
    filterPattern: logs.FilterPattern.stringValue('$.msg', '=', RESERVE_METRICS_MESSAGE),
    metricNamespace: RESERVE_METRICS_NAMESPACE,
    metricName: m.metricName,
    metricValue: `$.${m.field}`,
    unit: cloudwatch.Unit.NONE,
  })
  const alarm = new cloudwatch.Alarm(stack, 'SigningStoppedAlarm', {
    alarmDescription:
      'The stop switch is on: no worker signs a transaction; queued mints, burns and compliance operations wait and nothing is lost. See the banner on /admin for who stopped it and why; a second admin resumes it on /admin/changes.',
    metric: filter.metric({ statistic: cloudwatch.Stats.MAXIMUM, period: Duration.minutes(1) }),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  alarm.addAlarmAction(new cloudwatchActions.SnsAction(p.topic))
  alarm.addOkAction(new cloudwatchActions.SnsAction(p.topic))
  return alarm
}
