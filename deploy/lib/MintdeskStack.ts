import {
  aws_certificatemanager as acm,
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cloudwatchActions,
  aws_ec2 as ec2,
  aws_ecr as ecr,
  aws_ecs as ecs,
  aws_ecs_patterns as ecsPatterns,
  aws_elasticloadbalancingv2 as elbv2,
  aws_iam as iam,
  aws_kms as kms,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_rds as rds,
  aws_secretsmanager as secretsmanager,
  aws_sns as sns,
  aws_sns_subscriptions as snsSubscriptions,
  CfnOutput,
  CfnParameter,
  CustomResource,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib'
import { Provider } from 'aws-cdk-lib/custom-resources'
import type { Construct } from 'constructs'
import { QUEUE_METRICS, QUEUE_METRICS_MESSAGE, QUEUE_METRICS_NAMESPACE } from '../../lib/ops/emitQueueMetrics'

/**
 * One mintdesk environment on AWS (docs/deploy.md, docs/decisions/010-deploy-ecs-cdk.md):
 *
 * - a VPC over 2 AZs: public subnets (ALB, NAT), private subnets with egress (the tasks:
 *   they reach KMS, Secrets Manager, ECR, CloudWatch and the chain's RPC through NAT),
 *   isolated subnets (RDS);
 * - RDS Postgres 17, encrypted, private, TLS only, its password in Secrets Manager and
 *   reachable only from the web, worker and migration tasks' security groups;
 * - one ECS cluster with two services from the two Dockerfile targets: the web behind an
 *   ALB (target health check GET /api/ready) and the worker, its own service with no
 *   load balancer, desired count 2, stopTimeout matching its graceful shutdown;
 * - the migration, a one-off task definition (`node migrate.mjs`) run exactly once per
 *   deploy by a custom resource that waits for it to exit 0; both services depend on it,
 *   so they roll only after the schema is current and never migrate themselves;
 * - the signing keys in KMS (ECC_SECG_P256K1, SIGN_VERIFY) whose key policy lets only the
 *   worker's task role call kms:Sign and kms:GetPublicKey;
 * - AUTH_SECRET, METRICS_TOKEN (generated here), the OIDC client secret and the RPC URL
 *   (created by the operator) from Secrets Manager into the task definitions;
 * - logs in CloudWatch Logs; alarms on dead letters > 0 and on the oldest queued job's
 *   age, from metric filters on the worker's `queue_metrics` log line
 *   (lib/ops/emitQueueMetrics.ts).
 *
 * Synthesis needs neither Docker nor AWS: the images are ECR repositories plus an
 * ImageTag parameter, and the stack is environment-agnostic unless `env` is given.
 */

/** ECS waits this long after SIGTERM before SIGKILL; the worker drains in ~25 s. */
export const WORKER_STOP_TIMEOUT = Duration.seconds(30)
export const WORKER_DESIRED_COUNT = 2
export const WEB_PORT = 3000
export const READY_PATH = '/api/ready'
/** the images' health checks (Dockerfile HEALTHCHECK), repeated for ECS, which ignores HEALTHCHECK */
export const CONTAINER_HEALTHCHECK_COMMAND = ['CMD', 'node', 'healthcheck.mjs']
export const MIGRATE_COMMAND = ['node', 'migrate.mjs']
export const DB_NAME = 'mintdesk'
export const DB_USER = 'mintdesk'

/**
 * What the key policy lets the account's administrators do with a signing key: manage
 * it, never use it. No kms:Sign, no kms:GetPublicKey, no `kms:*`, `kms:Get*` or
 * kms:CreateGrant (a grant could hand Sign to anyone). Changing this policy itself
 * (kms:PutKeyPolicy) is the break-glass path; CloudTrail records it.
 */
export const KEY_ADMIN_ACTIONS = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:ListAliases',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListResourceTags',
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:UpdateKeyDescription',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:RevokeGrant',
  'kms:RetireGrant',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
]
/** all the worker needs: the public key (its address) and signatures */
export const SIGNER_ACTIONS = ['kms:Sign', 'kms:GetPublicKey']

export type MintdeskStackProps = StackProps & {
  /** ACM certificate for the ALB's HTTPS listener (production cookies are Secure-only) */
  certificateArn: string
  /** ECR repositories holding the `web` and `worker` targets of the Dockerfile */
  webRepositoryName?: string
  workerRepositoryName?: string
  /**
   * One KMS signing key per name, each a signer of the worker (KMS_KEY_IDS, in this
   * order). Rotation adds a name, drains the old signer, then removes its name; a
   * removed key is retained in KMS, never deleted by a deploy (docs/deploy.md).
   */
  signerKeyNames?: string[]
  /** Secrets Manager names of the secrets the operator creates before the first deploy */
  oidcClientSecretName?: string
  rpcUrlSecretName?: string
  /** where the alarms are mailed; none: the SNS topic only */
  alarmEmail?: string
  natGateways?: number
  dbInstanceType?: ec2.InstanceType
  dbMultiAz?: boolean
  /** alarm when a ready job has waited longer than this (seconds, 3 minutes in a row) */
  oldestQueuedAgeAlarmSeconds?: number
  webDesiredCount?: number
  workerConcurrency?: number
}

export class MintdeskStack extends Stack {
  readonly webService: ecsPatterns.ApplicationLoadBalancedFargateService
  readonly workerService: ecs.FargateService
  readonly workerTaskRole: iam.Role
  readonly webTaskRole: iam.Role
  readonly migrateTaskDefinition: ecs.FargateTaskDefinition
  readonly signerKeys: kms.Key[]
  readonly deadLettersAlarm: cloudwatch.Alarm
  readonly oldestQueuedAgeAlarm: cloudwatch.Alarm

  constructor(scope: Construct, id: string, props: MintdeskStackProps) {
    super(scope, id, props)
    const signerKeyNames = props.signerKeyNames ?? ['signer-1']
    if (signerKeyNames.length === 0) throw new Error('signerKeyNames: at least one signing key')
    if (new Set(signerKeyNames).size !== signerKeyNames.length) throw new Error('signerKeyNames: names must be unique')

    // ---- deploy-time parameters (synthesis needs none of them)
    const imageTag = new CfnParameter(this, 'ImageTag', {
      type: 'String',
      description: 'Tag of both images in ECR (the same build): e.g. the git commit',
      allowedPattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$',
    })
    const appUrl = new CfnParameter(this, 'AppUrl', {
      type: 'String',
      description: "The app's public origin, e.g. https://mintdesk.example.com (a DNS name for the ALB)",
      allowedPattern: '^https://[^/]+$',
    })
    const chainId = new CfnParameter(this, 'ChainId', { type: 'Number', description: 'EVM chain id' })
    const tokenAddress = new CfnParameter(this, 'TokenAddress', {
      type: 'String',
      description: 'The deployed GoldToken',
      allowedPattern: '^0x[0-9a-fA-F]{40}$',
    })
    const confirmations = new CfnParameter(this, 'Confirmations', { type: 'Number', default: 3, minValue: 1 })
    const oidcIssuer = new CfnParameter(this, 'OidcIssuer', { type: 'String', description: 'OIDC issuer URL', allowedPattern: '^https://.+$' })
    const oidcClientId = new CfnParameter(this, 'OidcClientId', { type: 'String', description: 'OIDC client id', minLength: 1 })

    // ---- network
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: props.natGateways ?? 2,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'app', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
        { name: 'db', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
      ],
    })
    const appSubnets: ec2.SubnetSelection = { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS }
    const webSg = new ec2.SecurityGroup(this, 'WebSg', { vpc, description: 'mintdesk web tasks' })
    const workerSg = new ec2.SecurityGroup(this, 'WorkerSg', { vpc, description: 'mintdesk worker tasks (no inbound)' })
    const migrateSg = new ec2.SecurityGroup(this, 'MigrateSg', { vpc, description: 'mintdesk migration task (no inbound)' })

    // ---- database
    const dbSg = new ec2.SecurityGroup(this, 'DbSg', { vpc, description: 'mintdesk Postgres: the app tasks only', allowAllOutbound: false })
    for (const [sg, who] of [
      [webSg, 'web'],
      [workerSg, 'worker'],
      [migrateSg, 'migration task'],
    ] as const) {
      dbSg.addIngressRule(sg, ec2.Port.tcp(5432), `Postgres from the ${who}`)
    }
    const engine = rds.DatabaseInstanceEngine.postgres({ version: rds.PostgresEngineVersion.VER_17 })
    const db = new rds.DatabaseInstance(this, 'Db', {
      engine,
      instanceType: props.dbInstanceType ?? ec2.InstanceType.of(ec2.InstanceClass.T4G, ec2.InstanceSize.MEDIUM),
      vpc,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
      securityGroups: [dbSg],
      publiclyAccessible: false,
      multiAz: props.dbMultiAz ?? true,
      databaseName: DB_NAME,
      // the password goes into PGPASSWORD, never into a URL: still, keep it URL-safe
      credentials: rds.Credentials.fromGeneratedSecret(DB_USER, { excludeCharacters: ` %+~\`#$&*()|[]{}:;<>?!'/@"\\,=^` }),
      storageEncrypted: true,
      storageType: rds.StorageType.GP3,
      allocatedStorage: 20,
      maxAllocatedStorage: 200,
      backupRetention: Duration.days(14),
      deletionProtection: true,
      removalPolicy: RemovalPolicy.SNAPSHOT,
      cloudwatchLogsExports: ['postgresql'],
      parameterGroup: new rds.ParameterGroup(this, 'DbParams', { engine, parameters: { 'rds.force_ssl': '1' } }),
    })
    if (!db.secret) throw new Error('the database has no generated secret')
    // no password in it: postgres.js and node-postgres both read PGPASSWORD
    const databaseUrl = `postgres://${DB_USER}@${db.dbInstanceEndpointAddress}:${db.dbInstanceEndpointPort}/${DB_NAME}?sslmode=verify-full`
    const dbPassword = ecs.Secret.fromSecretsManager(db.secret, 'password')

    // ---- secrets
    const authSecret = new secretsmanager.Secret(this, 'AuthSecret', {
      description: 'mintdesk AUTH_SECRET (next-auth session signing)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    })
    const metricsToken = new secretsmanager.Secret(this, 'MetricsToken', {
      description: 'mintdesk METRICS_TOKEN (bearer token of GET /api/metrics)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    })
    const oidcClientSecret = secretsmanager.Secret.fromSecretNameV2(this, 'OidcClientSecret', props.oidcClientSecretName ?? 'mintdesk/oidc-client-secret')
    const rpcUrl = secretsmanager.Secret.fromSecretNameV2(this, 'RpcUrl', props.rpcUrlSecretName ?? 'mintdesk/rpc-url')

    // ---- roles: one task role per process, so KMS can tell them apart
    this.webTaskRole = new iam.Role(this, 'WebTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'mintdesk web: no AWS permissions (it never signs)',
    })
    this.workerTaskRole = new iam.Role(this, 'WorkerTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'mintdesk worker: the only principal allowed to sign with the mint keys',
    })
    const migrateTaskRole = new iam.Role(this, 'MigrateTaskRole', {
      assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'mintdesk migration task: no AWS permissions',
    })

    // ---- signing keys
    this.signerKeys = signerKeyNames.map(
      (name) =>
        new kms.Key(this, `SignerKey-${name}`, {
          description: `mintdesk mint signer ${name} (secp256k1)`,
          keySpec: kms.KeySpec.ECC_SECG_P256K1,
          keyUsage: kms.KeyUsage.SIGN_VERIFY,
          alias: `alias/mintdesk/${name}`,
          // a signing key is an on-chain identity: a deploy never deletes one
          removalPolicy: RemovalPolicy.RETAIN,
          policy: new iam.PolicyDocument({
            statements: [
              new iam.PolicyStatement({
                sid: 'KeyAdministration',
                principals: [new iam.AccountRootPrincipal()],
                actions: KEY_ADMIN_ACTIONS,
                resources: ['*'],
              }),
              new iam.PolicyStatement({
                sid: 'WorkerSigns',
                principals: [new iam.ArnPrincipal(this.workerTaskRole.roleArn)],
                actions: SIGNER_ACTIONS,
                resources: ['*'],
              }),
            ],
          }),
        }),
    )

    // ---- cluster, logs, images
    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED })
    const logGroup = (name: string) =>
      new logs.LogGroup(this, `${name}Logs`, { retention: logs.RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN })
    const webLogs = logGroup('Web')
    const workerLogs = logGroup('Worker')
    const migrateLogs = logGroup('Migrate')
    const webImage = ecs.ContainerImage.fromEcrRepository(
      ecr.Repository.fromRepositoryName(this, 'WebRepo', props.webRepositoryName ?? 'mintdesk-web'),
      imageTag.valueAsString,
    )
    const workerImage = ecs.ContainerImage.fromEcrRepository(
      ecr.Repository.fromRepositoryName(this, 'WorkerRepo', props.workerRepositoryName ?? 'mintdesk-worker'),
      imageTag.valueAsString,
    )
    const chainEnv = {
      CHAIN_ID: chainId.valueAsString,
      TOKEN_ADDRESS: tokenAddress.valueAsString,
      CONFIRMATIONS: confirmations.valueAsString,
      AWS_REGION: this.region,
    }
    const healthCheck = (startPeriod: Duration): ecs.HealthCheck => ({
      command: CONTAINER_HEALTHCHECK_COMMAND,
      interval: Duration.seconds(30),
      timeout: Duration.seconds(5),
      retries: 3,
      startPeriod,
    })

    // ---- migration: a one-off task, run once per deploy before the services roll
    this.migrateTaskDefinition = new ecs.FargateTaskDefinition(this, 'MigrateTask', {
      cpu: 256,
      memoryLimitMiB: 512,
      taskRole: migrateTaskRole,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.X86_64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    })
    this.migrateTaskDefinition.addContainer('migrate', {
      image: workerImage,
      command: MIGRATE_COMMAND,
      essential: true,
      environment: { DATABASE_URL: databaseUrl },
      secrets: { PGPASSWORD: dbPassword },
      logging: ecs.LogDrivers.awsLogs({ logGroup: migrateLogs, streamPrefix: 'migrate' }),
    })
    const migration = this.runMigrationOnDeploy({ cluster, vpc, appSubnets, migrateSg, imageTag: imageTag.valueAsString })
    migration.node.addDependency(db)

    // ---- worker: its own service, no load balancer
    const workerTask = new ecs.FargateTaskDefinition(this, 'WorkerTask', {
      cpu: 512,
      memoryLimitMiB: 1024,
      taskRole: this.workerTaskRole,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.X86_64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    })
    workerTask.addContainer('worker', {
      image: workerImage,
      essential: true,
      stopTimeout: WORKER_STOP_TIMEOUT,
      healthCheck: healthCheck(Duration.seconds(20)),
      environment: {
        DATABASE_URL: databaseUrl,
        ...chainEnv,
        KMS_KEY_IDS: Fn.join(',', this.signerKeys.map((k) => k.keyId)),
        WORKER_CONCURRENCY: String(props.workerConcurrency ?? 8),
      },
      secrets: { PGPASSWORD: dbPassword, RPC_URL: ecs.Secret.fromSecretsManager(rpcUrl) },
      logging: ecs.LogDrivers.awsLogs({ logGroup: workerLogs, streamPrefix: 'worker' }),
    })
    this.workerService = new ecs.FargateService(this, 'WorkerService', {
      cluster,
      taskDefinition: workerTask,
      desiredCount: WORKER_DESIRED_COUNT,
      // one worker keeps running while the other is replaced
      minHealthyPercent: 50,
      maxHealthyPercent: 200,
      circuitBreaker: { rollback: true },
      vpcSubnets: appSubnets,
      securityGroups: [workerSg],
      assignPublicIp: false,
    })
    this.workerService.node.addDependency(migration)

    // ---- web: behind the ALB, ready = database answers and migrations are current
    const webTask = new ecs.FargateTaskDefinition(this, 'WebTask', {
      cpu: 512,
      memoryLimitMiB: 1024,
      taskRole: this.webTaskRole,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.X86_64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    })
    webTask.addContainer('web', {
      image: webImage,
      essential: true,
      portMappings: [{ containerPort: WEB_PORT }],
      stopTimeout: Duration.seconds(30),
      healthCheck: healthCheck(Duration.seconds(30)),
      environment: {
        DATABASE_URL: databaseUrl,
        ...chainEnv,
        APP_URL: appUrl.valueAsString,
        PORT: String(WEB_PORT),
        // the runtime sets HOSTNAME to the task's name; Next must listen on every address
        HOSTNAME: '0.0.0.0',
        OIDC_ISSUER: oidcIssuer.valueAsString,
        OIDC_CLIENT_ID: oidcClientId.valueAsString,
      },
      secrets: {
        PGPASSWORD: dbPassword,
        AUTH_SECRET: ecs.Secret.fromSecretsManager(authSecret),
        METRICS_TOKEN: ecs.Secret.fromSecretsManager(metricsToken),
        OIDC_CLIENT_SECRET: ecs.Secret.fromSecretsManager(oidcClientSecret),
        RPC_URL: ecs.Secret.fromSecretsManager(rpcUrl),
      },
      logging: ecs.LogDrivers.awsLogs({ logGroup: webLogs, streamPrefix: 'web' }),
    })
    this.webService = new ecsPatterns.ApplicationLoadBalancedFargateService(this, 'Web', {
      cluster,
      taskDefinition: webTask,
      desiredCount: props.webDesiredCount ?? 2,
      publicLoadBalancer: true,
      protocol: elbv2.ApplicationProtocol.HTTPS,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      redirectHTTP: true,
      sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
      taskSubnets: appSubnets,
      securityGroups: [webSg],
      assignPublicIp: false,
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { rollback: true },
      healthCheckGracePeriod: Duration.seconds(60),
    })
    this.webService.targetGroup.configureHealthCheck({
      path: READY_PATH,
      healthyHttpCodes: '200',
      interval: Duration.seconds(15),
      timeout: Duration.seconds(5),
      healthyThresholdCount: 2,
      unhealthyThresholdCount: 3,
    })
    this.webService.targetGroup.setAttribute('deregistration_delay.timeout_seconds', '30')
    this.webService.service.node.addDependency(migration)

    // ---- alarms: from the worker's queue_metrics log line (lib/ops/emitQueueMetrics.ts)
    const alarmTopic = new sns.Topic(this, 'Alarms', { displayName: 'mintdesk alarms' })
    if (props.alarmEmail) alarmTopic.addSubscription(new snsSubscriptions.EmailSubscription(props.alarmEmail))
    const queueMetric = (key: keyof typeof QUEUE_METRICS) => {
      const m = QUEUE_METRICS[key]
      const filter = new logs.MetricFilter(this, `${m.metricName}Filter`, {
        logGroup: workerLogs,
        filterPattern: logs.FilterPattern.stringValue('$.msg', '=', QUEUE_METRICS_MESSAGE),
        metricNamespace: QUEUE_METRICS_NAMESPACE,
        metricName: m.metricName,
        metricValue: `$.${m.field}`,
        unit: m.unit === 'Count' ? cloudwatch.Unit.COUNT : cloudwatch.Unit.SECONDS,
      })
      // every worker reports the same queue: the worst report of the minute counts
      return filter.metric({ statistic: cloudwatch.Stats.MAXIMUM, period: Duration.minutes(1) })
    }
    this.deadLettersAlarm = new cloudwatch.Alarm(this, 'DeadLettersAlarm', {
      alarmDescription: 'A mint job exhausted its attempts: it waits in the dead letters (/admin/dead) for an admin to retry or cancel it.',
      metric: queueMetric('deadLetters'),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    })
    const maxAge = props.oldestQueuedAgeAlarmSeconds ?? 300
    this.oldestQueuedAgeAlarm = new cloudwatch.Alarm(this, 'OldestQueuedJobAgeAlarm', {
      alarmDescription: `A ready job has waited over ${maxAge} s for 3 minutes, or no worker has reported the queue for 3 minutes: workers down, stuck or too few.`,
      metric: queueMetric('oldestQueuedAgeSeconds'),
      threshold: maxAge,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      // the line comes from the workers: silence means none is running
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    })
    for (const alarm of [this.deadLettersAlarm, this.oldestQueuedAgeAlarm]) {
      alarm.addAlarmAction(new cloudwatchActions.SnsAction(alarmTopic))
      alarm.addOkAction(new cloudwatchActions.SnsAction(alarmTopic))
    }

    // ---- what the operator needs (docs/deploy.md)
    new CfnOutput(this, 'LoadBalancerDns', { value: this.webService.loadBalancer.loadBalancerDnsName })
    new CfnOutput(this, 'ClusterName', { value: cluster.clusterName })
    new CfnOutput(this, 'MigrateTaskDefinitionArn', { value: this.migrateTaskDefinition.taskDefinitionArn })
    new CfnOutput(this, 'AppSubnetIds', { value: Fn.join(',', vpc.selectSubnets(appSubnets).subnetIds) })
    new CfnOutput(this, 'MigrateSecurityGroupId', { value: migrateSg.securityGroupId })
    new CfnOutput(this, 'SignerKeyIds', { value: Fn.join(',', this.signerKeys.map((k) => k.keyId)) })
    new CfnOutput(this, 'DbSecretArn', { value: db.secret.secretArn })
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn })
  }

  /**
   * A custom resource that runs the migration task and waits until it has exited 0
   * (Step Functions polls every 15 s, up to 30 min); a failure fails the deploy, which
   * rolls back before any service has moved. It runs again whenever its properties
   * change: a new ImageTag makes a new task definition revision.
   */
  private runMigrationOnDeploy(p: {
    cluster: ecs.Cluster
    vpc: ec2.IVpc
    appSubnets: ec2.SubnetSelection
    migrateSg: ec2.SecurityGroup
    imageTag: string
  }): CustomResource {
    const task = this.migrateTaskDefinition
    const onEvent = new lambda.Function(this, 'MigrateOnEvent', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.onEvent',
      code: lambda.Code.fromInline(MIGRATION_HANDLER_SOURCE),
      timeout: Duration.minutes(1),
      description: 'mintdesk: starts the migration task of a deploy',
    })
    const isComplete = new lambda.Function(this, 'MigrateIsComplete', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.isComplete',
      code: lambda.Code.fromInline(MIGRATION_HANDLER_SOURCE),
      timeout: Duration.minutes(1),
      description: 'mintdesk: waits for the migration task of a deploy to exit',
    })
    onEvent.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:RunTask'],
        resources: [task.taskDefinitionArn],
        conditions: { ArnEquals: { 'ecs:cluster': p.cluster.clusterArn } },
      }),
    )
    const passRoles = [task.taskRole.roleArn, task.obtainExecutionRole().roleArn]
    onEvent.addToRolePolicy(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: passRoles }))
    isComplete.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:DescribeTasks'],
        resources: ['*'],
        conditions: { ArnEquals: { 'ecs:cluster': p.cluster.clusterArn } },
      }),
    )
    const provider = new Provider(this, 'MigrateProvider', {
      onEventHandler: onEvent,
      isCompleteHandler: isComplete,
      queryInterval: Duration.seconds(15),
      totalTimeout: Duration.minutes(30),
    })
    return new CustomResource(this, 'Migration', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::MintdeskMigration',
      properties: {
        Cluster: p.cluster.clusterArn,
        TaskDefinition: task.taskDefinitionArn,
        ContainerName: 'migrate',
        Subnets: p.vpc.selectSubnets(p.appSubnets).subnetIds,
        SecurityGroups: [p.migrateSg.securityGroupId],
        ImageTag: p.imageTag,
      },
    })
  }
}

/**
 * The two handlers of the migration custom resource (inline: no asset, no Docker).
 * The AWS SDK v3 ships with the Lambda Node.js runtime.
 */
export const MIGRATION_HANDLER_SOURCE = `
const { ECSClient, RunTaskCommand, DescribeTasksCommand } = require('@aws-sdk/client-ecs');
const ecs = new ECSClient({});
exports.onEvent = async (event) => {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const p = event.ResourceProperties;
  const out = await ecs.send(new RunTaskCommand({
    cluster: p.Cluster,
    taskDefinition: p.TaskDefinition,
    launchType: 'FARGATE',
    count: 1,
    startedBy: 'mintdesk-deploy',
    networkConfiguration: { awsvpcConfiguration: { subnets: p.Subnets, securityGroups: p.SecurityGroups, assignPublicIp: 'DISABLED' } },
  }));
  const taskArn = out.tasks && out.tasks[0] && out.tasks[0].taskArn;
  if (!taskArn) throw new Error('RunTask started no task: ' + JSON.stringify(out.failures || []));
  console.log(JSON.stringify({ msg: 'migration task started', taskArn, imageTag: p.ImageTag }));
  return { PhysicalResourceId: 'mintdesk-migration', Data: { TaskArn: taskArn } };
};
exports.isComplete = async (event) => {
  if (event.RequestType === 'Delete') return { IsComplete: true };
  const p = event.ResourceProperties;
  const taskArn = event.Data && event.Data.TaskArn;
  const out = await ecs.send(new DescribeTasksCommand({ cluster: p.Cluster, tasks: [taskArn] }));
  const task = out.tasks && out.tasks[0];
  if (!task || task.lastStatus !== 'STOPPED') return { IsComplete: false };
  const c = (task.containers || []).find((x) => x.name === p.ContainerName);
  if (c && c.exitCode === 0) return { IsComplete: true, Data: { TaskArn: taskArn } };
  throw new Error('migration task ' + taskArn + ' failed: exit ' + (c && c.exitCode) + ', ' + (task.stoppedReason || '') + ' ' + ((c && c.reason) || '') + ' (see its CloudWatch log stream)');
};
`
