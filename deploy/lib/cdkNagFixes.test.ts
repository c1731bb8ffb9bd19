import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { DB_PASSWORD_EXCLUDED_CHARACTERS } from './addDatabase'
import { MintdeskStack } from './MintdeskStack'
import { TEST_ENV, TEST_STACK_PROPS } from './testStackProps'

// The controls behind the cdk-nag findings that were fixed rather than acknowledged
// (deploy/lib/cdkNag.test.ts runs the rules), each asserted on the template.

type Json = Record<string, unknown>
type Resource = { Type: string; Properties: Json; DeletionPolicy?: string }
type Statement = {
  Effect: string
  Action: string | string[]
  Principal?: unknown
  Resource?: unknown
  Condition?: Json
}

let template: Json
let resources: Record<string, Resource>

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type)
const one = (type: string): [string, Resource] => {
  const found = ofType(type)
  expect(found, type).toHaveLength(1)
  return found[0] as [string, Resource]
}
const idLike = (prefix: string) => {
  const id = Object.keys(resources).find((k) => k.startsWith(prefix))
  if (!id) throw new Error(`no resource ${prefix}*`)
  return id
}

beforeAll(() => {
  template = Template.fromStack(new MintdeskStack(new App(), 'MintdeskNagFixes', TEST_STACK_PROPS)).toJSON()
  resources = template.Resources as Record<string, Resource>
})

describe('what the cdk-nag fixes put in place', () => {
  it('VPC7: a flow log of all the VPC traffic, to a log group kept a year', () => {
    const [, flowLog] = one('AWS::EC2::FlowLog')
    expect(flowLog.Properties).toMatchObject({
      ResourceType: 'VPC',
      ResourceId: { Ref: idLike('Vpc8378') },
      TrafficType: 'ALL',
      LogDestinationType: 'cloud-watch-logs',
      LogGroupName: { Ref: idLike('VpcFlowLogs') },
    })
    expect(resources[idLike('VpcFlowLogs')]?.Properties.RetentionInDays).toBe(365)
  })

  it('ELB2: the ALB logs every request to its own bucket: SSE-S3, TLS only, no public access, no ACLs', () => {
    const [, lb] = one('AWS::ElasticLoadBalancingV2::LoadBalancer')
    const bucketId = idLike('AlbAccessLogs')
    expect(lb.Properties.LoadBalancerAttributes).toEqual(
      expect.arrayContaining([
        { Key: 'access_logs.s3.enabled', Value: 'true' },
        { Key: 'access_logs.s3.bucket', Value: { Ref: bucketId } },
      ]),
    )
    const bucket = resources[bucketId] as Resource
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    })
    expect(bucket.DeletionPolicy).toBe('Retain')
    const [, policy] = one('AWS::S3::BucketPolicy')
    const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    )
    // the only writers: ELB log delivery of the stack's region (eu-west-1's ELB account) and the
    // log delivery service, each only under the ALB's prefix
    const allowed = statements.filter((s) => s.Effect === 'Allow')
    expect(allowed.length).toBeGreaterThan(0)
    for (const s of allowed) {
      expect(JSON.stringify(s.Principal)).toMatch(/:iam::156460612806:root|"delivery\.logs\.amazonaws\.com"/)
      if (s.Action === 's3:PutObject') expect(JSON.stringify(s.Resource)).toContain('/web/AWSLogs/')
      else expect(s.Action).toBe('s3:GetBucketAcl')
    }
    expect(JSON.stringify(allowed.map((s) => s.Principal))).toContain(':iam::156460612806:root')
    expect(TEST_ENV.region).toBe('eu-west-1')
    // which principal delivers depends on the region: a stack without one is refused, by name
    const { env: _, ...agnostic } = TEST_STACK_PROPS
    expect(() => new MintdeskStack(new App(), 'MintdeskNoRegion', agnostic)).toThrow(/env\.region/)
  })

  it("SNS3: the alarms topic refuses publishing without TLS (and lets this account's alarms publish)", () => {
    const [, policy] = one('AWS::SNS::TopicPolicy')
    const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    )
    expect(statements.some((s) => s.Effect === 'Allow' && JSON.stringify(s.Principal).includes('cloudwatch'))).toBe(
      true,
    )
  })

  it("SMG4: the RDS master secret rotates every 30 days with Secrets Manager's hosted PostgreSQL rotation", () => {
    expect(template.Transform).toBe('AWS::SecretsManager-2024-09-16')
    const [, rotation] = one('AWS::SecretsManager::RotationSchedule')
    expect(rotation.Properties).toMatchObject({
      SecretId: { Ref: idLike('DbSecretAttachment') },
      RotationRules: { ScheduleExpression: 'rate(30 days)' },
      RotateImmediatelyOnUpdate: false,
      HostedRotationLambda: {
        RotationType: 'PostgreSQLSingleUser',
        ExcludeCharacters: DB_PASSWORD_EXCLUDED_CHARACTERS,
        VpcSecurityGroupIds: { 'Fn::GetAtt': [idLike('DbRotationSg'), 'GroupId'] },
      },
    })
    // in the app subnets (Secrets Manager through NAT), not the isolated ones
    expect(JSON.stringify((rotation.Properties.HostedRotationLambda as Json).VpcSubnetIds)).toMatch(/VpcappSubnet1/)
    // the rotated password stays URL-safe, as the generated one
    const [, secret] = Object.entries(resources).find(
      ([id, r]) => r.Type === 'AWS::SecretsManager::Secret' && id.startsWith('MintdeskNagFixesDbSecret'),
    ) as [string, Resource]
    expect((secret.Properties.GenerateSecretString as Json).ExcludeCharacters).toBe(DB_PASSWORD_EXCLUDED_CHARACTERS)
  })

  it('IAM4 and L1: no AWS managed policy on any role; the migration handlers on the latest Node.js runtime, logging to their own log groups', () => {
    for (const [id, role] of ofType('AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns, id).toBeUndefined()
    const handlers = ofType('AWS::Lambda::Function').filter(([id]) => /^Migrate(OnEvent|IsComplete)/.test(id))
    expect(handlers).toHaveLength(2)
    for (const [id, fn] of handlers) {
      expect(fn.Properties.Runtime, id).toBe('nodejs24.x')
      expect(JSON.stringify(fn.Properties.LoggingConfig), id).toMatch(/Logs/)
    }
    for (const [id, group] of ofType('AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays, id).toBe(365)
  })

  it('SF1: the migration waiter logs every execution event', () => {
    const [, machine] = one('AWS::StepFunctions::StateMachine')
    expect(machine.Properties.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false })
  })

  it('IAM5: the SES user may send from its one identity; without an identity there is no user at all', () => {
    const withDomain = Template.fromStack(
      new MintdeskStack(new App(), 'MintdeskNagFixesMail', { ...TEST_STACK_PROPS, mailFromDomain: 'mail.example.com' }),
    ).toJSON().Resources as Record<string, Resource>
    const policies = Object.values(withDomain).filter(
      (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Users ?? '').includes('SesSmtpUser'),
    )
    const resource = JSON.stringify(
      policies.flatMap((p) =>
        (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement.map((s) => s.Resource),
      ),
    )
    expect(resource).toContain(':identity/mail.example.com')
    expect(resource).not.toContain('*')
    expect(ofType('AWS::IAM::User')).toEqual([])
  })
})
