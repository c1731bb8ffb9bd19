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

export type AddReserveAlarmParameters = {
  /** the workers' log group: the reserve_check task writes the `reserve_metrics` line there */
  workerLogs: logs.ILogGroup
  /** the alarms' SNS topic (addQueueAlarms) */
  topic: sns.ITopic
}

/**
 * An alarm on a reserve shortfall (docs/architecture.md invariant 4): the token's supply
 * above the fine gold backing it, as the worker's reconciliation saw it. From a metric
 * filter on the `reserve_metrics` log line (worker/reserves/reserveMetrics.ts); one check
 * with a shortfall is enough. No line (no check ran) is not a shortfall: the dead-letter
 * and oldest-queued alarms cover a check that fails or a worker that is gone.
 */
export function addReserveAlarm(stack: Stack, p: AddReserveAlarmParameters): cloudwatch.Alarm {
  const m = RESERVE_METRICS.shortfallOz
  const filter = new logs.MetricFilter(stack, `${m.metricName}Filter`, {
    logGroup: p.workerLogs,
    filterPattern: logs.FilterPattern.stringValue('$.msg', '=', RESERVE_METRICS_MESSAGE),
    metricNamespace: RESERVE_METRICS_NAMESPACE,
    metricName: m.metricName,
    metricValue: `$.${m.field}`,
    unit: cloudwatch.Unit.NONE,
  })
  const alarm = new cloudwatch.Alarm(stack, 'ReserveShortfallAlarm', {
    alarmDescription:
      'The token supply exceeds the fine gold of the bars backing it (a bar list dropped bars that back tokens, or tokens were minted outside mintdesk). The worker refuses mints that would not be covered; see /reserves and the missing bars of the latest bar list, then reconcile with the custodian.',
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
