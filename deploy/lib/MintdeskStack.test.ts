import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { App, type aws_iam as iam } from 'aws-cdk-lib'
import { Match, Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '@/lib/config/loadConfig'
import { dockerTarget, readDockerfile } from '@/tests/release/dockerfile'
import { QUEUE_METRICS, QUEUE_METRICS_MESSAGE, QUEUE_METRICS_NAMESPACE } from '@/worker/ops/emitQueueMetrics'
import { RESERVE_METRICS, RESERVE_METRICS_MESSAGE, RESERVE_METRICS_NAMESPACE } from '@/worker/reserves/reserveMetrics'
import { MIGRATE_COMMAND } from './addMigrateTask'
import { READY_PATH } from './addWebService'
import { WORKER_DESIRED_COUNT, WORKER_STOP_TIMEOUT } from './addWorkerService'
import { CONTAINER_HEALTHCHECK_COMMAND } from './containerHealthCheck'
import { MintdeskStack } from './MintdeskStack'
import { TEST_ENV, TEST_IMAGE_DIGESTS } from './testStackProps'

// `cdk synth`, offline, in npm test: the template is synthesized in this process (no
// Docker, no AWS account, no aws-cdk CLI) and checked with aws-cdk-lib/assertions.

type Json = Record<string, unknown>
type Resource = { Type: string; Properties?: Json; DependsOn?: string[] }
type Statement = { Effect: string; Action: string | string[]; Principal?: unknown; Resource?: unknown; Sid?: string }
type ContainerDefinition = {
  Name: string
  Command?: string[]
  Environment?: { Name: string; Value: unknown }[]
  Secrets?: { Name: string; ValueFrom: unknown }[]
  StopTimeout?: number
  HealthCheck?: { Command: string[]; Interval?: number; Timeout?: number; Retries?: number; StartPeriod?: number }
}

const root = path.resolve(import.meta.dirname, '..', '..')
const CERT = 'arn:aws:acm:eu-west-1:111111111111:certificate/00000000-0000-0000-0000-000000000000'

let stack: MintdeskStack
let template: Template
let resources: Record<string, Resource>

function logicalId(construct: iam.IRole): string {
  const child = construct.node.defaultChild
  if (!child) throw new Error(`${construct.node.path} has no CFN resource`)
  // a CfnElement: the role's AWS::IAM::Role
  return stack.getLogicalId(child as Parameters<MintdeskStack['getLogicalId']>[0])
}

function ofType(type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type)
}

function containersOf(taskDefinitionId: string): ContainerDefinition[] {
  return (resources[taskDefinitionId]?.Properties?.ContainerDefinitions ?? []) as ContainerDefinition[]
}

function taskDefinitionByContainer(name: string): string {
  const found = ofType('AWS::ECS::TaskDefinition').find(([id]) => containersOf(id).some((c) => c.Name === name))
  if (!found) throw new Error(`no task definition with a container named ${name}`)
  return found[0]
}

function envOf(c: ContainerDefinition): Record<string, unknown> {
  return Object.fromEntries((c.Environment ?? []).map((e) => [e.Name, e.Value]))
}

function actionsOf(s: Statement): string[] {
  return Array.isArray(s.Action) ? s.Action : [s.Action]
}

/** IAM action matching: `kms:*`, `kms:S*`, `*` all cover kms:Sign */
function covers(pattern: string, action: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  )
  return re.test(action)
}

function grants(s: Statement, action: string): boolean {
  return s.Effect === 'Allow' && actionsOf(s).some((a) => covers(a, action))
}

beforeAll(() => {
  const app = new App()
  stack = new MintdeskStack(app, 'MintdeskTest', {
    certificateArn: CERT,
    imageDigests: TEST_IMAGE_DIGESTS,
    env: TEST_ENV,
    signerKeyNames: ['signer-1', 'signer-2'],
  })
  template = Template.fromStack(stack)
  resources = template.toJSON().Resources as Record<string, Resource>
})

describe('MintdeskStack (synthesized offline)', () => {
  it('runs the web and the worker as two separate ECS services: the web behind the ALB, the worker without one', () => {
    const services = ofType('AWS::ECS::Service')
    expect(services).toHaveLength(2)
    const web = services.find(([, s]) => s.Properties?.LoadBalancers !== undefined)
    const worker = services.find(([, s]) => s.Properties?.LoadBalancers === undefined)
    expect(web).toBeDefined()
    expect(worker).toBeDefined()
    expect(web?.[1].Properties?.TaskDefinition).toEqual({ Ref: taskDefinitionByContainer('web') })
    expect(worker?.[1].Properties?.TaskDefinition).toEqual({ Ref: taskDefinitionByContainer('worker') })
    expect(worker?.[1].Properties?.DesiredCount).toBe(WORKER_DESIRED_COUNT)
    expect(WORKER_DESIRED_COUNT).toBe(2)
    expect(worker?.[1].Properties?.LaunchType).toBe('FARGATE')
  })

  it('gives each process its own task role; only the worker task definition uses the worker role', () => {
    const workerRole = logicalId(stack.workerTaskRole)
    const webRole = logicalId(stack.webTaskRole)
    const roleOf = (container: string) => resources[taskDefinitionByContainer(container)]?.Properties?.TaskRoleArn
    expect(roleOf('worker')).toEqual({ 'Fn::GetAtt': [workerRole, 'Arn'] })
    expect(roleOf('web')).toEqual({ 'Fn::GetAtt': [webRole, 'Arn'] })
    expect(roleOf('migrate')).not.toEqual({ 'Fn::GetAtt': [workerRole, 'Arn'] })
  })

  it('lets the worker finish in-flight jobs on SIGTERM: stopTimeout 30 s', () => {
    const [worker] = containersOf(taskDefinitionByContainer('worker'))
    expect(worker?.StopTimeout).toBe(30)
    expect(WORKER_STOP_TIMEOUT.toSeconds()).toBe(30)
    // the worker's own grace (WORKER_SHUTDOWN_GRACE_MS) ends well before ECS's SIGKILL
    const { worker: settings } = loadConfig({ env: { DATABASE_URL: 'postgres://x@localhost/x' } })
    expect(settings.shutdownGraceMs + 3_000).toBeLessThanOrEqual(WORKER_STOP_TIMEOUT.toMilliseconds())
  })

  it('health-checks the web target at /api/ready', () => {
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      HealthCheckPath: READY_PATH,
      Matcher: { HttpCode: '200' },
      TargetType: 'ip',
    })
    expect(READY_PATH).toBe('/api/ready')
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Protocol: 'HTTPS', Port: 443 })
  })

  it('runs the same container health checks as the images (Dockerfile HEALTHCHECK)', () => {
    const stages = readDockerfile(root)
    for (const name of ['web', 'worker']) {
      const [c] = containersOf(taskDefinitionByContainer(name))
      const image = dockerTarget(stages, name).healthcheck
      expect(c?.HealthCheck?.Command).toEqual(CONTAINER_HEALTHCHECK_COMMAND)
      expect(['CMD', ...(image?.cmd ?? [])]).toEqual(CONTAINER_HEALTHCHECK_COMMAND)
      expect(`${c?.HealthCheck?.Interval}s`).toBe(image?.options.interval)
      expect(`${c?.HealthCheck?.Timeout}s`).toBe(image?.options.timeout)
      expect(String(c?.HealthCheck?.Retries)).toBe(image?.options.retries)
    }
  })

  it('creates secp256k1 signing keys (ECC_SECG_P256K1, SIGN_VERIFY), retained on removal', () => {
    const keys = ofType('AWS::KMS::Key')
    expect(keys).toHaveLength(2)
    for (const [id, key] of keys) {
      expect(key.Properties?.KeySpec).toBe('ECC_SECG_P256K1')
      expect(key.Properties?.KeyUsage).toBe('SIGN_VERIFY')
      expect((resources[id] as unknown as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain')
    }
  })

  it("grants kms:Sign and kms:GetPublicKey to the worker's task role alone: no wildcard, no root, not the web", () => {
    const workerArn = { 'Fn::GetAtt': [logicalId(stack.workerTaskRole), 'Arn'] }
    for (const [, key] of ofType('AWS::KMS::Key')) {
      const statements = (key.Properties!.KeyPolicy as { Statement: Statement[] }).Statement
      for (const action of ['kms:Sign', 'kms:GetPublicKey']) {
        const granting = statements.filter((s) => grants(s, action))
        expect(granting, action).toHaveLength(1)
        expect(granting[0]?.Principal).toEqual({ AWS: workerArn })
      }
      // the account root keeps administration (CDK/KMS lockout safety) but no use and no grants
      const admin = statements.find((s) => s.Sid === 'KeyAdministration')
      expect(admin).toBeDefined()
      for (const a of ['kms:Sign', 'kms:GetPublicKey', 'kms:CreateGrant', 'kms:Decrypt'])
        expect(grants(admin as Statement, a), a).toBe(false)
      expect(statements.every((s) => s.Principal !== '*' && JSON.stringify(s.Principal) !== '{"AWS":"*"}')).toBe(true)
      expect(JSON.stringify(statements)).not.toContain(logicalId(stack.webTaskRole))
    }
    // and no identity policy anywhere hands out signing (the key policy is the only grant)
    const documents: [string, { Statement: Statement[] }][] = [
      ...[...ofType('AWS::IAM::Policy'), ...ofType('AWS::IAM::ManagedPolicy')].map(
        ([id, p]) =>
          [id, p.Properties?.PolicyDocument as { Statement: Statement[] }] as [string, { Statement: Statement[] }],
      ),
      ...ofType('AWS::IAM::Role').flatMap(([id, r]) =>
        ((r.Properties?.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).map(
          (p) => [id, p.PolicyDocument] as [string, { Statement: Statement[] }],
        ),
      ),
    ]
    expect(documents.length).toBeGreaterThan(0)
    for (const [id, doc] of documents) {
      for (const s of doc.Statement) {
        expect(grants(s, 'kms:Sign'), `${id} grants kms:Sign`).toBe(false)
        expect(grants(s, 'kms:GetPublicKey'), `${id} grants kms:GetPublicKey`).toBe(false)
      }
    }
    // the worker gets the keys' ids; the web does not
    const workerEnv = envOf(containersOf(taskDefinitionByContainer('worker'))[0] as ContainerDefinition)
    const webEnv = envOf(containersOf(taskDefinitionByContainer('web'))[0] as ContainerDefinition)
    expect(JSON.stringify(workerEnv.KMS_KEY_IDS)).toMatch(/SignerKeysigner1.*SignerKeysigner2/)
    expect(webEnv.KMS_KEY_IDS).toBeUndefined()
  })

  it("gives the worker the token's deployment block (TokenDeployBlock), where its chain followers start", () => {
    template.hasParameter('TokenDeployBlock', { Type: 'Number', MinValue: 0 })
    const workerEnv = envOf(containersOf(taskDefinitionByContainer('worker'))[0] as ContainerDefinition)
    const webEnv = envOf(containersOf(taskDefinitionByContainer('web'))[0] as ContainerDefinition)
    expect(workerEnv.TOKEN_DEPLOY_BLOCK).toEqual({ Ref: 'TokenDeployBlock' })
    expect(webEnv.TOKEN_DEPLOY_BLOCK).toBeUndefined()
  })

  it('passes the fee ceiling to the worker only when it is set (issue 13)', () => {
    const workerEnvOf = (t: Template) => {
      const defs = Object.values(t.findResources('AWS::ECS::TaskDefinition')) as {
        Properties?: { ContainerDefinitions?: ContainerDefinition[] }
      }[]
      const worker = defs.flatMap((d) => d.Properties?.ContainerDefinitions ?? []).find((c) => c.Name === 'worker')
      return envOf(worker as ContainerDefinition)
    }
    expect(workerEnvOf(template).MAX_FEE_PER_GAS).toBeUndefined()
    const capped = new MintdeskStack(new App(), 'MintdeskCapped', {
      certificateArn: CERT,
      imageDigests: TEST_IMAGE_DIGESTS,
      env: TEST_ENV,
      maxFeePerGasWei: '200000000000',
      maxPriorityFeeWei: '2000000000',
    })
    const env = workerEnvOf(Template.fromStack(capped))
    expect(env).toMatchObject({ MAX_FEE_PER_GAS: '200000000000', MAX_PRIORITY_FEE: '2000000000' })
  })

  it('(the policy check above catches wildcards)', () => {
    const st = (Action: string | string[]): Statement => ({ Effect: 'Allow', Action })
    for (const a of ['kms:Sign', 'kms:*', 'kms:S*', '*', 'KMS:sign', ['kms:Decrypt', 'kms:Si*']])
      expect(grants(st(a), 'kms:Sign'), String(a)).toBe(true)
    for (const a of ['kms:GetPublicKey', 'kms:SignX', 'kms:Verify', 'kms:Get*'])
      expect(grants(st(a), 'kms:Sign'), String(a)).toBe(false)
    expect(grants(st('kms:Get*'), 'kms:GetPublicKey')).toBe(true)
    expect(grants({ Effect: 'Deny', Action: '*' }, 'kms:Sign')).toBe(false)
  })

  it('alarms on dead letters > 0 and on the oldest queued job, from metric filters on the worker log line', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: QUEUE_METRICS_NAMESPACE,
      MetricName: QUEUE_METRICS.deadLetters.metricName,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      Statistic: 'Maximum',
      AlarmActions: Match.anyValue(),
    })
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: QUEUE_METRICS_NAMESPACE,
      MetricName: QUEUE_METRICS.oldestQueuedAgeSeconds.metricName,
      Threshold: 300,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'breaching',
    })
    // mints held back by the fee ceiling for 10 minutes
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: QUEUE_METRICS_NAMESPACE,
      MetricName: QUEUE_METRICS.feeCappedOrders.metricName,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 10,
      DatapointsToAlarm: 10,
      TreatMissingData: 'notBreaching',
      AlarmActions: Match.anyValue(),
    })
    // rates of the cumulative counters, DIFF() per 5 minutes (the Grafana alerts' signals)
    const mathAlarm = (expression: string, metricNames: string[], threshold: number) =>
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: Match.anyValue(),
        Metrics: Match.arrayWith([
          Match.objectLike({ Expression: expression, ReturnData: true }),
          ...metricNames.map((name) =>
            Match.objectLike({
              MetricStat: Match.objectLike({
                Metric: Match.objectLike({ Namespace: QUEUE_METRICS_NAMESPACE, MetricName: name }),
                Stat: 'Maximum',
                Period: 300,
              }),
              ReturnData: false,
            }),
          ),
        ]),
      })
    mathAlarm(
      'IF(DIFF(attempts) > 0, 100 * DIFF(failures) / DIFF(attempts), 0)',
      [QUEUE_METRICS.jobAttemptsTotal.metricName, QUEUE_METRICS.jobFailuresTotal.metricName],
      50,
    )
    mathAlarm('DIFF(throttles)', [QUEUE_METRICS.kmsThrottlesTotal.metricName], 100)
    mathAlarm('DIFF(reorgs)', [QUEUE_METRICS.reorgsTotal.metricName], 0)
    const workerLogGroup = (
      containersOf(taskDefinitionByContainer('worker'))[0] as unknown as { LogConfiguration: { Options: Json } }
    ).LogConfiguration.Options['awslogs-group']
    for (const m of Object.values(QUEUE_METRICS)) {
      template.hasResourceProperties('AWS::Logs::MetricFilter', {
        LogGroupName: workerLogGroup,
        FilterPattern: `{ $.msg = "${QUEUE_METRICS_MESSAGE}" }`,
        MetricTransformations: [
          Match.objectLike({
            MetricNamespace: QUEUE_METRICS_NAMESPACE,
            MetricName: m.metricName,
            MetricValue: `$.${m.field}`,
          }),
        ],
      })
    }
  })

  it('alarms while the stop switch is on, from the signingStopped field of the reserve_check line', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: `{ $.msg = "${RESERVE_METRICS_MESSAGE}" }`,
      MetricTransformations: [
        Match.objectLike({
          MetricNamespace: RESERVE_METRICS_NAMESPACE,
          MetricName: RESERVE_METRICS.signingStopped.metricName,
          MetricValue: '$.signingStopped',
        }),
      ],
    })
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: RESERVE_METRICS_NAMESPACE,
      MetricName: RESERVE_METRICS.signingStopped.metricName,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      Statistic: 'Maximum',
      TreatMissingData: 'notBreaching',
      AlarmActions: Match.anyValue(),
      OKActions: Match.anyValue(),
    })
  })

  it('alarms on a reserve shortfall > 0 (issue 12), from a metric filter on the reserve_check log line, to the same topic', () => {
    const workerLogGroup = (
      containersOf(taskDefinitionByContainer('worker'))[0] as unknown as { LogConfiguration: { Options: Json } }
    ).LogConfiguration.Options['awslogs-group']
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: workerLogGroup,
      FilterPattern: `{ $.msg = "${RESERVE_METRICS_MESSAGE}" }`,
      MetricTransformations: [
        Match.objectLike({
          MetricNamespace: RESERVE_METRICS_NAMESPACE,
          MetricName: RESERVE_METRICS.shortfallOz.metricName,
          MetricValue: '$.shortfallOz',
        }),
      ],
    })
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(
      ([, r]) => r.Properties?.MetricName === RESERVE_METRICS.shortfallOz.metricName,
    )
    expect(alarms).toHaveLength(1)
    const [[, alarm] = ['', { Type: '' }]] = alarms
    expect(alarm.Properties).toMatchObject({
      Namespace: RESERVE_METRICS_NAMESPACE,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      Statistic: 'Maximum',
      TreatMissingData: 'notBreaching',
    })
    // notifies the alarms topic, on alarm and on recovery, like the queue alarms
    const topics = ofType('AWS::SNS::Topic')
    expect(topics).toHaveLength(1)
    const topicRef = JSON.stringify({ Ref: topics[0]?.[0] })
    expect(JSON.stringify(alarm.Properties?.AlarmActions)).toBe(`[${topicRef}]`)
    expect(JSON.stringify(alarm.Properties?.OKActions)).toBe(`[${topicRef}]`)
  })

  it('keeps RDS Postgres 17 private, encrypted, TLS-only, reachable only from the app tasks', () => {
    const [[, db] = ['', { Type: '' }]] = ofType('AWS::RDS::DBInstance')
    expect(db.Properties?.PubliclyAccessible).toBe(false)
    expect(db.Properties?.StorageEncrypted).toBe(true)
    expect(db.Properties?.Engine).toBe('postgres')
    expect(String(db.Properties?.EngineVersion)).toMatch(/^17/)
    expect(JSON.stringify(db.Properties?.MasterUserPassword)).toContain('resolve:secretsmanager')
    template.hasResourceProperties('AWS::RDS::DBParameterGroup', { Parameters: { 'rds.force_ssl': '1' } })
    // inbound to the database: 5432 from the web, worker and migration tasks and the rotation, nothing else
    const dbSgs = db.Properties?.VPCSecurityGroups as { 'Fn::GetAtt': [string, string] }[]
    expect(dbSgs).toHaveLength(1)
    const dbSg = dbSgs[0]?.['Fn::GetAtt'][0] as string
    const ingress = ofType('AWS::EC2::SecurityGroupIngress').filter(([, r]) =>
      JSON.stringify(r.Properties?.GroupId).includes(dbSg),
    )
    expect(ingress.map(([, r]) => r.Properties?.FromPort)).toEqual([5432, 5432, 5432, 5432])
    // from the web, worker and migration security groups and the master secret's rotation (addDatabase)
    const from = ingress.map(
      ([, r]) => JSON.stringify(r.Properties?.SourceSecurityGroupId).match(/"(\w+?)[0-9A-F]{8}"/)?.[1],
    )
    expect(from).toEqual(['WebSg', 'WorkerSg', 'MigrateSg', 'DbRotationSg'])
    expect(resources[dbSg]?.Properties?.SecurityGroupIngress).toBeUndefined()
  })

  it('references every secret from Secrets Manager, never inlines one, and bakes in no dev default', () => {
    const secretNames = [
      'AUTH_SECRET',
      'METRICS_TOKEN',
      'OIDC_CLIENT_SECRET',
      'PGPASSWORD',
      'RPC_URLS',
      'SMTP_URL',
      'WEB_DATABASE_PASSWORD',
      'WEBHOOK_SECRETS_KEY',
      'WORKER_DATABASE_PASSWORD',
    ]
    const banned =
      /^(MINTDESK_DEV|MINTDESK_ALLOW_LOOPBACK_KMS|DEV_STAFF_PASSWORD|DEV_APPROVER_PASSWORD|DEV_ADMIN_PASSWORD|DEV_ADMIN2_PASSWORD|DEV_AUDITOR_PASSWORD|KMS_ENDPOINT|AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|NODE_ENV)$/
    for (const [id] of ofType('AWS::ECS::TaskDefinition')) {
      for (const c of containersOf(id)) {
        const env = envOf(c)
        for (const name of Object.keys(env)) {
          expect(secretNames, `${c.Name} has ${name} in plain environment`).not.toContain(name)
          expect(name, `${c.Name}`).not.toMatch(banned)
        }
        for (const s of c.Secrets ?? []) expect(JSON.stringify(s.ValueFrom)).toMatch(/secretsmanager|Ref/)
        // the database URL carries no password (PGPASSWORD comes from the secret)
        expect(JSON.stringify(env.DATABASE_URL)).toMatch(/postgres:\/\/mintdesk(_web|_worker)?@/)
        expect(JSON.stringify(env.DATABASE_URL)).toContain('sslmode=verify-full')
      }
    }
    const secretsOf = (name: string) =>
      (containersOf(taskDefinitionByContainer(name))[0]?.Secrets ?? []).map((s) => s.Name).sort()
    expect(secretsOf('web')).toEqual([
      'AUTH_SECRET',
      'METRICS_TOKEN',
      'OIDC_CLIENT_SECRET',
      'PGPASSWORD',
      'RPC_URLS',
      'WEBHOOK_SECRETS_KEY',
    ])
    expect(secretsOf('worker')).toEqual(['PGPASSWORD', 'RPC_URLS', 'SMTP_URL', 'WEBHOOK_SECRETS_KEY'])
    expect(secretsOf('migrate')).toEqual(['PGPASSWORD', 'WEB_DATABASE_PASSWORD', 'WORKER_DATABASE_PASSWORD'])
    // the generated secrets are generated, not literal
    for (const [, s] of ofType('AWS::SecretsManager::Secret')) {
      expect(s.Properties?.SecretString).toBeUndefined()
      expect(s.Properties?.GenerateSecretString).toBeDefined()
    }
  })

  it('gives each task its own database login: the migration the master user and both role passwords, the web and the worker only their own role (invariant 7)', () => {
    const container = (name: string) => {
      const c = containersOf(taskDefinitionByContainer(name))[0]
      if (!c) throw new Error(`no ${name} container`)
      return c
    }
    /**
     * the Secrets Manager secret (its logical id: a secret, or the
     * master secret's attachment) a container variable comes from
     */
    const secretOf = (name: string, variable: string): string => {
      const from = JSON.stringify(container(name).Secrets?.find((s) => s.Name === variable)?.ValueFrom ?? null)
      const types = ['AWS::SecretsManager::Secret', 'AWS::SecretsManager::SecretTargetAttachment']
      const ids = Object.keys(resources).filter(
        (id) => types.includes(resources[id]?.Type ?? '') && from.includes(`"${id}"`),
      )
      if (ids.length !== 1) throw new Error(`${name}'s ${variable} comes from ${ids.length} secrets: ${from}`)
      return ids[0] as string
    }
    // the master user's password: the RDS instance's generated secret, through its attachment
    const master = secretOf('migrate', 'PGPASSWORD')
    expect(resources[master]?.Type).toBe('AWS::SecretsManager::SecretTargetAttachment')
    const masterSecret = JSON.stringify(resources[master]?.Properties?.SecretId)
    const webSecret = secretOf('web', 'PGPASSWORD')
    const workerSecret = secretOf('worker', 'PGPASSWORD')
    expect(new Set([master, webSecret, workerSecret]).size).toBe(3)
    expect(masterSecret).not.toContain(webSecret)
    expect(masterSecret).not.toContain(workerSecret)
    expect(secretOf('migrate', 'WEB_DATABASE_PASSWORD')).toBe(webSecret)
    expect(secretOf('migrate', 'WORKER_DATABASE_PASSWORD')).toBe(workerSecret)
    for (const [id, r] of [
      [webSecret, resources[webSecret]],
      [workerSecret, resources[workerSecret]],
    ] as const) {
      expect(r?.Properties?.GenerateSecretString, id).toMatchObject({ ExcludePunctuation: true })
    }
    // each process connects as its own role; only the migration as the master user
    expect(JSON.stringify(envOf(container('web')).DATABASE_URL)).toContain('postgres://mintdesk_web@')
    expect(JSON.stringify(envOf(container('worker')).DATABASE_URL)).toContain('postgres://mintdesk_worker@')
    expect(JSON.stringify(envOf(container('migrate')).DATABASE_URL)).toContain('postgres://mintdesk@')
  })

  it('migrates once per deploy in a one-off task, before either service rolls; the services never migrate', () => {
    const migrateTask = taskDefinitionByContainer('migrate')
    expect(containersOf(migrateTask)[0]?.Command).toEqual(MIGRATE_COMMAND)
    const [[migrationId, migration] = ['', { Type: '' }], ...more] = ofType('Custom::MintdeskMigration')
    expect(more).toHaveLength(0)
    expect(migration.Properties?.TaskDefinition).toEqual({ Ref: migrateTask })
    for (const [id, service] of ofType('AWS::ECS::Service')) expect(service.DependsOn ?? [], id).toContain(migrationId)
    for (const name of ['web', 'worker'])
      expect(containersOf(taskDefinitionByContainer(name))[0]?.Command).toBeUndefined()
    // the migration task is not a service
    expect(ofType('AWS::ECS::Service').map(([, s]) => s.Properties?.TaskDefinition)).not.toContainEqual({
      Ref: migrateTask,
    })
  })

  it('sends every container log to CloudWatch Logs', () => {
    for (const [id] of ofType('AWS::ECS::TaskDefinition')) {
      for (const c of containersOf(id)) {
        expect((c as unknown as { LogConfiguration?: { LogDriver: string } }).LogConfiguration?.LogDriver).toBe(
          'awslogs',
        )
      }
    }
    expect(ofType('AWS::Logs::LogGroup').length).toBeGreaterThanOrEqual(3)
  })

  it('keeps the logical ids of the stateful resources: a change would make CloudFormation replace them', () => {
    // the database, its secret (its password), the signing keys (the signers' addresses),
    // the generated secrets, the log groups and the VPC of a deployed environment
    const stateful = {
      Vpc8378EB38: 'AWS::EC2::VPC',
      Db5D02A0A9: 'AWS::RDS::DBInstance',
      MintdeskTestDbSecret145EEEBE963b0bf29a12c8c1e8217ef79b495a19: 'AWS::SecretsManager::Secret',
      SignerKeysigner189DC8E3B: 'AWS::KMS::Key',
      SignerKeysigner20D8FEC77: 'AWS::KMS::Key',
      AuthSecretC13F30CE: 'AWS::SecretsManager::Secret',
      MetricsTokenCD5F7598: 'AWS::SecretsManager::Secret',
      WebLogs48A7C011: 'AWS::Logs::LogGroup',
      WorkerLogsC1193B08: 'AWS::Logs::LogGroup',
      MigrateLogs5B280EF4: 'AWS::Logs::LogGroup',
    }
    for (const [id, type] of Object.entries(stateful)) expect(resources[id]?.Type, id).toBe(type)
  })

  it('spreads over 2 AZs with private subnets that have egress', () => {
    const subnets = ofType('AWS::EC2::Subnet')
    expect(subnets).toHaveLength(6)
    expect(ofType('AWS::EC2::NatGateway')).toHaveLength(2)
  })
})

describe('deploy/bin/mintdesk.ts', () => {
  it('synthesizes the app to a cloud assembly, like `cdk synth`, offline', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'mintdesk-cdk-'))
    try {
      const res = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'deploy', 'bin', 'mintdesk.ts')],
        {
          cwd: path.join(root, 'deploy'),
          env: {
            ...process.env,
            CDK_OUTDIR: out,
            CDK_DEFAULT_REGION: TEST_ENV.region,
            CDK_CONTEXT_JSON: JSON.stringify({
              certificateArn: CERT,
              webImageDigest: TEST_IMAGE_DIGESTS.web,
              workerImageDigest: TEST_IMAGE_DIGESTS.worker,
              maxFeePerGasWei: '200000000000',
            }),
          },
          encoding: 'utf8',
          timeout: 170_000,
        },
      )
      expect(res.status, res.stderr).toBe(0)
      const file = path.join(out, 'Mintdesk.template.json')
      expect(existsSync(file)).toBe(true)
      const t = JSON.parse(readFileSync(file, 'utf8')) as { Resources: Record<string, Resource> }
      expect(Object.values(t.Resources).filter((r) => r.Type === 'AWS::ECS::Service')).toHaveLength(2)
      // the images by digest, from the context
      const images = Object.values(t.Resources)
        .filter((r) => r.Type === 'AWS::ECS::TaskDefinition')
        .flatMap((r) => (r.Properties?.ContainerDefinitions ?? []) as { Image: unknown }[])
        .map((c) => JSON.stringify(c.Image))
      expect(images).toHaveLength(3)
      for (const image of images) expect(image).toMatch(/@sha256:[0-9a-f]{64}/)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  }, 180_000)
})
