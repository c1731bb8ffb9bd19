import {
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cloudwatchActions,
  Duration,
  aws_iam as iam,
  aws_logs as logs,
  type Stack,
  aws_sns as sns,
  aws_sns_subscriptions as snsSubscriptions,
} from 'aws-cdk-lib'
import { QUEUE_METRICS, QUEUE_METRICS_MESSAGE, QUEUE_METRICS_NAMESPACE } from '../../worker/ops/emitQueueMetrics'

export type AddQueueAlarmsParameters = {
  /** the workers' log group: each worker writes the `queue_metrics` line there */
  workerLogs: logs.ILogGroup
  /** where the alarms are mailed; none: the SNS topic only */
  alarmEmail?: string
  /** alarm when a ready job has waited longer than this (seconds, 3 minutes in a row) */
  oldestQueuedAgeAlarmSeconds?: number
  /** alarm when KMS throttled more than this many Sign calls in 5 minutes, twice in a row (100 by default) */
  kmsThrottlesAlarmPer5Minutes?: number
}

export type QueueAlarms = {
  topic: sns.Topic
  deadLetters: cloudwatch.Alarm
  oldestQueuedAge: cloudwatch.Alarm
  feeCappedOrders: cloudwatch.Alarm
  unreconciledEvents: cloudwatch.Alarm
  jobFailureRatio: cloudwatch.Alarm
  kmsThrottles: cloudwatch.Alarm
  reorgs: cloudwatch.Alarm
}

/**
 * The alarms, from metric filters on the worker's `queue_metrics` log line
 * (worker/ops/emitQueueMetrics.ts): dead letters > 0, the oldest queued job's age (or no
 * worker reporting at all), orders held back by the fee ceiling for 10 minutes, any unreconciled chain event, and from
 * the line's cumulative counters: over half of the job attempts failing, KMS
 * throttling beyond its retries, any reorg. The same signals as the Grafana dashboard's
 * alerts (deploy/grafana/mintdesk.json). All notify an SNS topic, on alarm and on recovery;
 * the topic refuses publishing without TLS (aws:SecureTransport) and lets CloudWatch
 * publish only for this account's alarms.
 */
export function addQueueAlarms(stack: Stack, p: AddQueueAlarmsParameters): QueueAlarms {
  const topic = new sns.Topic(stack, 'Alarms', { displayName: 'mintdesk alarms', enforceSSL: true })
  // a topic policy replaces SNS's default one: the alarms of this account must be allowed by name
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'AlarmsOfThisAccountPublish',
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
      },
    }),
  )
  if (p.alarmEmail) topic.addSubscription(new snsSubscriptions.EmailSubscription(p.alarmEmail))
  // one metric filter per field of the line, made once
  const filters = Object.fromEntries(
    Object.entries(QUEUE_METRICS).map(([key, m]) => [
      key,
      new logs.MetricFilter(stack, `${m.metricName}Filter`, {
        logGroup: p.workerLogs,
        filterPattern: logs.FilterPattern.stringValue('$.msg', '=', QUEUE_METRICS_MESSAGE),
        metricNamespace: QUEUE_METRICS_NAMESPACE,
        metricName: m.metricName,
        metricValue: `$.${m.field}`,
        unit: m.unit === 'Count' ? cloudwatch.Unit.COUNT : cloudwatch.Unit.SECONDS,
      }),
    ]),
  ) as Record<keyof typeof QUEUE_METRICS, logs.MetricFilter>
  // every worker reports the same queue and the same cumulative
  // counters: the worst (highest) report of the period counts
  const queueMetric = (key: keyof typeof QUEUE_METRICS, period = Duration.minutes(1)) =>
    filters[key].metric({ statistic: cloudwatch.Stats.MAXIMUM, period })
  const deadLetters = new cloudwatch.Alarm(stack, 'DeadLettersAlarm', {
    alarmDescription:
      'A mint job exhausted its attempts: it waits in the dead letters (/admin/dead) for an admin to retry or cancel it.',
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
  const unreconciledEvents = new cloudwatch.Alarm(stack, 'UnreconciledEventsAlarm', {
    alarmDescription:
      'The chain holds events no row of the desk accounts for (a mint by a holder of the minter role outside mintdesk, a burn or compliance change sent elsewhere): see /admin (Chain reconciliation), find out who sent it, and resolve it with a note. A mint of them counts in the supply with no backing, so /reserves shows the shortfall until bars back it.',
    metric: queueMetric('unreconciledEvents'),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  // rates from the cumulative counters: DIFF() of a period is
  // PromQL's increase(); the same signals as the Grafana alerts
  const fiveMinutes = Duration.minutes(5)
  const jobFailureRatio = new cloudwatch.Alarm(stack, 'JobFailureRatioAlarm', {
    alarmDescription:
      'Over half of the job attempts failed for 10 minutes (mintdesk_job_attempts_total{outcome="failed"}): the chain RPC, KMS or the database is failing. The jobs retry; the last errors are on /admin/jobs?state=retrying.',
    metric: new cloudwatch.MathExpression({
      expression: 'IF(DIFF(attempts) > 0, 100 * DIFF(failures) / DIFF(attempts), 0)',
      usingMetrics: {
        attempts: queueMetric('jobAttemptsTotal', fiveMinutes),
        failures: queueMetric('jobFailuresTotal', fiveMinutes),
      },
      period: fiveMinutes,
      label: 'failed job attempts, % of the period',
    }),
    threshold: 50,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  const kmsThrottles = new cloudwatch.Alarm(stack, 'KmsThrottlingAlarm', {
    alarmDescription: `KMS answered ThrottlingException over ${p.kmsThrottlesAlarmPer5Minutes ?? 100} times in 5 minutes, twice in a row (mintdesk_faults_total{fault="kms_throttled"}): signing runs at the account's quota; mints slow down. Lower KMS_SIGN_RATE or ask AWS for a higher Sign quota.`,
    metric: new cloudwatch.MathExpression({
      expression: 'DIFF(throttles)',
      usingMetrics: { throttles: queueMetric('kmsThrottlesTotal', fiveMinutes) },
      period: fiveMinutes,
      label: 'KMS throttles in the period',
    }),
    threshold: p.kmsThrottlesAlarmPer5Minutes ?? 100,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  const reorgs = new cloudwatch.Alarm(stack, 'ReorgAlarm', {
    alarmDescription:
      'A mined mint left the canonical chain (mintdesk_reorgs_total): the worker sends it again and it confirms later. Look at the reorged events of the orders; repeated reorgs mean too few CONFIRMATIONS for this chain.',
    metric: new cloudwatch.MathExpression({
      expression: 'DIFF(reorgs)',
      usingMetrics: { reorgs: queueMetric('reorgsTotal', fiveMinutes) },
      period: fiveMinutes,
      label: 'reorgs in the period',
    }),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  })
  for (const alarm of [
    deadLetters,
    oldestQueuedAge,
    feeCappedOrders,
    unreconciledEvents,
    jobFailureRatio,
    kmsThrottles,
    reorgs,
  ]) {
    alarm.addAlarmAction(new cloudwatchActions.SnsAction(topic))
    alarm.addOkAction(new cloudwatchActions.SnsAction(topic))
  }
  return {
    topic,
    deadLetters,
    oldestQueuedAge,
    feeCappedOrders,
    unreconciledEvents,
    jobFailureRatio,
    kmsThrottles,
    reorgs,
  }
}
