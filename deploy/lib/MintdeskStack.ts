import {
  CfnOutput,
  type aws_cloudwatch as cloudwatch,
  type aws_ec2 as ec2,
  aws_ecs as ecs,
  type aws_ecs_patterns as ecsPatterns,
  Fn,
  type aws_iam as iam,
  type aws_kms as kms,
  Stack,
  type StackProps,
  Token,
  type aws_wafv2 as wafv2,
} from 'aws-cdk-lib'
import type { Construct } from 'constructs'
import { ConfigError } from '../../lib/errors/config'
import { addAppSecrets } from './addAppSecrets'
import { addCluster } from './addCluster'
import { addDatabase } from './addDatabase'
import { addDatabaseRoles } from './addDatabaseRoles'
import { addDeadLetterQueueAlarm } from './addDeadLetterQueueAlarm'
import { addEmail } from './addEmail'
import { addMigrateTask } from './addMigrateTask'
import { addMigrationOnDeploy } from './addMigrationOnDeploy'
import { addNetwork } from './addNetwork'
import { addParameters } from './addParameters'
import { addQueue } from './addQueue'
import { addQueueAlarms } from './addQueueAlarms'
import { addReserveAlarm } from './addReserveAlarm'
import { addSignerKeyAlerts, type SignerKeyAlerts } from './addSignerKeyAlerts'
import { addSignerKeys } from './addSignerKeys'
import { addSigningStoppedAlarm } from './addSigningStoppedAlarm'
import { addTaskRoles } from './addTaskRoles'
import { addWebAcl } from './addWebAcl'
import { addWebService } from './addWebService'
import { addWorkerService } from './addWorkerService'
import type { ImageDigests } from './imageDigest'

/**
 * One mintdesk environment on AWS (docs/deploy.md, docs/decisions/010-deploy-ecs-cdk.md),
 * composed from one file per concern:
 *
 * - addNetwork: a VPC over 2 AZs: public subnets (ALB, NAT), private subnets with egress
 *   (the tasks: they reach KMS, Secrets Manager, ECR, CloudWatch and the chain's RPC
 *   through NAT), isolated subnets (RDS);
 * - addDatabase: RDS Postgres 17, encrypted, private, TLS only, its password in Secrets
 *   Manager and reachable only from the web, worker and migration tasks' security groups;
 * - addDatabaseRoles: a generated password per runtime role (mintdesk_web, mintdesk_worker):
 *   the migration task gets the master user's secret and both passwords (it creates the
 *   roles and sets them), the web only the web role's, the worker only the worker's
 *   (docs/architecture.md invariant 7);
 * - addWebService, addWorkerService: one ECS cluster with two services from the two
 *   Dockerfile targets: the web behind an ALB (target health check GET /api/ready) and
 *   the worker, its own service with no load balancer, desired count 2, stopTimeout
 *   matching its graceful shutdown;
 * - addWebAcl: WAF on the ALB: a per-IP rate limit on the public reserves paths (each
 *   request reads the chain), then AWS's managed common rules;
 * - addMigrateTask, addMigrationOnDeploy: the migration, a one-off task definition
 *   (`node migrate.mjs`) run exactly once per deploy by a custom resource that waits for
 *   it to exit 0; both services depend on it, so they roll only after the schema is
 *   current and never migrate themselves;
 * - addSignerKeys: the signing keys in KMS (ECC_SECG_P256K1, SIGN_VERIFY) whose key
 *   policy lets only the worker's task role call kms:Sign and kms:GetPublicKey;
 * - addAppSecrets: AUTH_SECRET, METRICS_TOKEN (generated here), the OIDC client secret
 *   and the RPC URL (created by the operator) from Secrets Manager into the tasks;
 * - addEmail: SES (a domain identity, an IAM user for its SMTP interface), SMTP_URL for the
 *   worker, the generated WEBHOOK_SECRETS_KEY for the web and the worker;
 * - addQueueAlarms: alarms on dead letters > 0, on the oldest queued job's age and on mints
 *   held back by the fee ceiling, from metric filters on the worker's `queue_metrics` log
 *   line (worker/ops/emitQueueMetrics.ts); and on the rates of its cumulative counters: job
 *   attempts failing, KMS throttling, reorgs;
 * - addReserveAlarm: an alarm on a reserve shortfall > 0, from a metric filter on the
 *   worker's `reserve_metrics` log line (worker/reserves/reserveMetrics.ts), on the same
 *   SNS topic; addSigningStoppedAlarm: one while the stop switch is on, from the same line.
 * - addSignerKeyAlerts: EventBridge rules on KMS's CloudTrail events, to the same topic: a
 *   signing key's policy changed or a grant created, a Sign by anyone but the worker's role.
 *
 * The concerns are functions that add their resources to the stack itself, not nested
 * constructs: a construct level would enter every logical id (and the ids CDK derives
 * from paths), and CloudFormation would replace the VPC, the database and its secret
 * and the signing keys of a deployed environment.
 *
 * Synthesis needs neither Docker nor AWS: the images are ECR repositories plus the
 * images' digests (props.imageDigests), the migration handlers are bundled with the local
 * esbuild, and the account may stay unresolved. The region may not: `env.region` is
 * required (the ALB's access-log delivery principal differs by region), as `cdk deploy`
 * always gives it (CDK_DEFAULT_REGION).
 */

export type MintdeskStackProps = StackProps & {
  /** ACM certificate for the ALB's HTTPS listener (production cookies are Secure-only) */
  certificateArn: string
  /**
   * The images to deploy, by digest (`sha256:...`, one per Dockerfile target): the task
   * definitions name `repo@sha256:...`, and a tag (mutable: it can be pushed again) is
   * refused at synth (deploy/lib/imageDigest.ts). A new digest makes new task definition
   * revisions and a new migration run.
   */
  imageDigests: ImageDigests
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
  /**
   * What carries mint_send (QUEUE_TRANSPORT): graphile-worker in RDS (default),
   * or SQS: the queue, its dead-letter queue (redrive after 5 receives), an alarm on the
   * DLQ's depth and the worker's rights on both (addQueue).
   */
  queueTransport?: 'postgres' | 'sqs'
  /**
   * The worker's fee ceiling, wei per gas as decimal strings (MAX_FEE_PER_GAS,
   * MAX_PRIORITY_FEE): above it the worker waits and FeeCeilingAlarm fires instead of
   * paying (FeeCappedOrdersAlarm). Unset: no ceiling.
   */
  maxFeePerGasWei?: string
  maxPriorityFeeWei?: string
  /** notifications: the SES domain mail is sent from, and the SMTP_URL secret's name (addEmail) */
  mailFromDomain?: string
  smtpUrlSecretName?: string
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
  readonly feeCappedOrdersAlarm: cloudwatch.Alarm
  readonly reserveShortfallAlarm: cloudwatch.Alarm
  readonly signingStoppedAlarm: cloudwatch.Alarm
  readonly sqsDeadLetterQueueAlarm: cloudwatch.Alarm | undefined
  readonly signerKeyAlerts: SignerKeyAlerts
  readonly webAcl: wafv2.CfnWebACL

  constructor(scope: Construct, id: string, props: MintdeskStackProps) {
    super(scope, id, props)
    if (Token.isUnresolved(this.region)) {
      throw new ConfigError(
        ['env.region'],
        'MintdeskStack needs its region (env.region; cdk deploy sets CDK_DEFAULT_REGION): the ALB access logs are delivered by a principal of the region',
      )
    }
    const params = addParameters(this)
    const network = addNetwork(this, { natGateways: props.natGateways })
    const db = addDatabase(this, {
      vpc: network.vpc,
      clients: [
        [network.webSg, 'web'],
        [network.workerSg, 'worker'],
        [network.migrateSg, 'migration task'],
      ],
      rotationSubnets: network.appSubnets,
      instanceType: props.dbInstanceType,
      multiAz: props.dbMultiAz,
    })
    // the web and the worker connect as their own least-privilege roles, never as the master user
    const dbRoles = addDatabaseRoles(this, { db })
    const secrets = addAppSecrets(this, {
      oidcClientSecretName: props.oidcClientSecretName,
      rpcUrlSecretName: props.rpcUrlSecretName,
    })
    const email = addEmail(this, { mailFromDomain: props.mailFromDomain, smtpUrlSecretName: props.smtpUrlSecretName })
    const webhookSecretsKey = ecs.Secret.fromSecretsManager(email.webhookSecretsKey)
    const roles = addTaskRoles(this)
    this.webTaskRole = roles.web
    this.workerTaskRole = roles.worker
    this.signerKeys = addSignerKeys(this, { names: props.signerKeyNames ?? ['signer-1'], signerRole: roles.worker })
    const kmsKeyIds = Fn.join(
      ',',
      this.signerKeys.map((k) => k.keyId),
    )
    // QUEUE_TRANSPORT=sqs: the queue and its DLQ; SQS rights for the worker only (the relay runs in the worker)
    const queues = props.queueTransport === 'sqs' ? addQueue(this, { workerRole: roles.worker }) : null
    const queueEnv: { web: Record<string, string>; worker: Record<string, string> } = queues
      ? {
          web: { QUEUE_TRANSPORT: 'sqs' },
          worker: {
            QUEUE_TRANSPORT: 'sqs',
            SQS_QUEUE_URL: queues.queue.queueUrl,
            SQS_DLQ_URL: queues.deadLetterQueue.queueUrl,
          },
        }
      : { web: {}, worker: {} }

    const { cluster, logs, webImage, workerImage } = addCluster(this, {
      vpc: network.vpc,
      imageDigests: props.imageDigests,
      webRepositoryName: props.webRepositoryName,
      workerRepositoryName: props.workerRepositoryName,
    })
    // what the web and the worker both get (each its own DATABASE_URL below)
    const sharedEnv = {
      CHAIN_ID: params.chainId.valueAsString,
      TOKEN_ADDRESS: params.tokenAddress.valueAsString,
      MINTER_ADDRESS: params.minterAddress.valueAsString,
      CONFIRMATIONS: params.confirmations.valueAsString,
      AWS_REGION: this.region,
    }
    const rpcUrl = ecs.Secret.fromSecretsManager(secrets.rpcUrl)

    // ---- migration: a one-off task, run once per deploy before the services roll
    this.migrateTaskDefinition = addMigrateTask(this, {
      image: workerImage,
      role: roles.migrate,
      logGroup: logs.migrate,
      databaseUrl: db.databaseUrl,
      dbPassword: db.password,
      rolePasswords: { web: dbRoles.web.password, worker: dbRoles.worker.password },
    })
    const migration = addMigrationOnDeploy(this, {
      cluster,
      vpc: network.vpc,
      appSubnets: network.appSubnets,
      securityGroup: network.migrateSg,
      taskDefinition: this.migrateTaskDefinition,
      imageDigest: props.imageDigests.worker,
    })
    migration.node.addDependency(db.instance)

    // ---- the two services, each rolling only after the migration
    this.workerService = addWorkerService(this, {
      cluster,
      image: workerImage,
      role: roles.worker,
      logGroup: logs.worker,
      appSubnets: network.appSubnets,
      securityGroup: network.workerSg,
      environment: {
        ...sharedEnv,
        DATABASE_URL: dbRoles.worker.databaseUrl,
        TOKEN_DEPLOY_BLOCK: params.tokenDeployBlock.valueAsString,
        ...queueEnv.worker,
        ...(props.maxFeePerGasWei ? { MAX_FEE_PER_GAS: props.maxFeePerGasWei } : {}),
        ...(props.maxPriorityFeeWei ? { MAX_PRIORITY_FEE: props.maxPriorityFeeWei } : {}),
        // the order links in notification emails
        NOTIFY_LINK_BASE_URL: params.appUrl.valueAsString,
        ...(email.mailFrom ? { MAIL_FROM: email.mailFrom } : {}),
      },
      kmsKeyIds,
      concurrency: props.workerConcurrency,
      secrets: {
        PGPASSWORD: dbRoles.worker.password,
        RPC_URLS: rpcUrl,
        SMTP_URL: ecs.Secret.fromSecretsManager(email.smtpUrl),
        WEBHOOK_SECRETS_KEY: webhookSecretsKey,
      },
    })
    this.workerService.node.addDependency(migration)
    this.webService = addWebService(this, {
      cluster,
      image: webImage,
      role: roles.web,
      logGroup: logs.web,
      appSubnets: network.appSubnets,
      securityGroup: network.webSg,
      certificateArn: props.certificateArn,
      environment: { ...sharedEnv, DATABASE_URL: dbRoles.web.databaseUrl, ...queueEnv.web },
      appUrl: params.appUrl.valueAsString,
      oidcIssuer: params.oidcIssuer.valueAsString,
      oidcClientId: params.oidcClientId.valueAsString,
      secrets: {
        PGPASSWORD: dbRoles.web.password,
        AUTH_SECRET: ecs.Secret.fromSecretsManager(secrets.authSecret),
        METRICS_TOKEN: ecs.Secret.fromSecretsManager(secrets.metricsToken),
        OIDC_CLIENT_SECRET: ecs.Secret.fromSecretsManager(secrets.oidcClientSecret),
        RPC_URLS: rpcUrl,
        WEBHOOK_SECRETS_KEY: webhookSecretsKey,
      },
      desiredCount: props.webDesiredCount,
    })
    this.webService.service.node.addDependency(migration)
    // WAF on the ALB: a per-IP rate limit on the public reserves paths, AWS's common rules
    this.webAcl = addWebAcl(this, { loadBalancer: this.webService.loadBalancer })

    const alarms = addQueueAlarms(this, {
      workerLogs: logs.worker,
      alarmEmail: props.alarmEmail,
      oldestQueuedAgeAlarmSeconds: props.oldestQueuedAgeAlarmSeconds,
    })
    this.deadLettersAlarm = alarms.deadLetters
    this.oldestQueuedAgeAlarm = alarms.oldestQueuedAge
    this.feeCappedOrdersAlarm = alarms.feeCappedOrders
    this.reserveShortfallAlarm = addReserveAlarm(this, { workerLogs: logs.worker, topic: alarms.topic })
    this.signingStoppedAlarm = addSigningStoppedAlarm(this, { workerLogs: logs.worker, topic: alarms.topic })
    // a signing key's policy changed, a grant made, or a Sign by anyone but the worker: to the same topic
    this.signerKeyAlerts = addSignerKeyAlerts(this, {
      keys: this.signerKeys,
      signerRole: roles.worker,
      topic: alarms.topic,
    })
    this.sqsDeadLetterQueueAlarm = queues
      ? addDeadLetterQueueAlarm(this, { deadLetterQueue: queues.deadLetterQueue, topic: alarms.topic })
      : undefined

    // ---- what the operator needs (docs/deploy.md)
    new CfnOutput(this, 'LoadBalancerDns', { value: this.webService.loadBalancer.loadBalancerDnsName })
    new CfnOutput(this, 'ClusterName', { value: cluster.clusterName })
    new CfnOutput(this, 'MigrateTaskDefinitionArn', { value: this.migrateTaskDefinition.taskDefinitionArn })
    new CfnOutput(this, 'AppSubnetIds', {
      value: Fn.join(',', network.vpc.selectSubnets(network.appSubnets).subnetIds),
    })
    new CfnOutput(this, 'MigrateSecurityGroupId', { value: network.migrateSg.securityGroupId })
    new CfnOutput(this, 'SignerKeyIds', { value: kmsKeyIds })
    new CfnOutput(this, 'DbSecretArn', { value: db.secretArn })
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn })
  }
}
