import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { SQS_MAX_RECEIVE_COUNT } from './addQueue'
import { MintdeskStack } from './MintdeskStack'
import { TEST_ENV, TEST_IMAGE_DIGESTS } from './testStackProps'

// QUEUE_TRANSPORT=sqs in the deployed stack, synthesized offline: the queue and
// its DLQ with the redrive policy set by the stack, the alarm on the DLQ's depth, SQS
// rights for the worker's role alone, and the transport in both processes' environment.

type Resource = { Type: string; Properties?: Record<string, unknown> }
type Statement = { Effect: string; Action: string | string[]; Resource?: unknown }

const CERT = 'arn:aws:acm:eu-west-1:111111111111:certificate/00000000-0000-0000-0000-000000000000'
let stack: MintdeskStack
let resources: Record<string, Resource>

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type)

function statementsOfRole(roleId: string): Statement[] {
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties?.Roles ?? []).includes(roleId))
    .flatMap(([, p]) => (p.Properties?.PolicyDocument as { Statement?: Statement[] })?.Statement ?? [])
}

function roleId(role: MintdeskStack['workerTaskRole']): string {
  const child = role.node.defaultChild
  if (!child) throw new Error('no role resource')
  return stack.getLogicalId(child as Parameters<MintdeskStack['getLogicalId']>[0]) // a CfnElement: the AWS::IAM::Role
}

function containerEnv(name: string): Record<string, unknown> {
  for (const [, r] of ofType('AWS::ECS::TaskDefinition')) {
    const defs = (r.Properties?.ContainerDefinitions ?? []) as {
      Name: string
      Environment?: { Name: string; Value: unknown }[]
    }[]
    const c = defs.find((d) => d.Name === name)
    if (c) return Object.fromEntries((c.Environment ?? []).map((e) => [e.Name, e.Value]))
  }
  throw new Error(`no container ${name}`)
}

beforeAll(() => {
  stack = new MintdeskStack(new App(), 'MintdeskSqsTest', {
    certificateArn: CERT,
    imageDigests: TEST_IMAGE_DIGESTS,
    env: TEST_ENV,
    queueTransport: 'sqs',
  })
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>
})

describe('MintdeskStack with queueTransport sqs', () => {
  it('creates the queue and its DLQ, the redrive policy (maxReceiveCount 5) set on the queue', () => {
    const queues = ofType('AWS::SQS::Queue')
    expect(queues).toHaveLength(2)
    const main = queues.find(([, q]) => q.Properties?.RedrivePolicy)
    expect(main?.[1].Properties?.RedrivePolicy).toMatchObject({ maxReceiveCount: SQS_MAX_RECEIVE_COUNT })
    expect(SQS_MAX_RECEIVE_COUNT).toBe(5)
    expect(main?.[1].Properties?.VisibilityTimeout).toBe(60)
    const dlq = queues.find(([, q]) => !q.Properties?.RedrivePolicy)
    expect(dlq?.[1].Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600)
  })

  it('alarms when the DLQ holds a message (depth > 0)', () => {
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith('SqsDeadLetterQueueAlarm'))
    expect(alarm?.[1].Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    })
    expect(stack.sqsDeadLetterQueueAlarm).toBeDefined()
  })

  it('gives SQS rights to the worker role only, on these two queues, no wildcard', () => {
    const worker = statementsOfRole(roleId(stack.workerTaskRole)).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('sqs:')),
    )
    const actions = worker.flatMap((s) => [s.Action].flat())
    expect(actions).toEqual(
      expect.arrayContaining([
        'sqs:SendMessage',
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
      ]),
    )
    expect(actions.some((a) => a.includes('*'))).toBe(false)
    expect(worker.every((s) => s.Resource !== '*')).toBe(true)
    const web = statementsOfRole(roleId(stack.webTaskRole))
    expect(web.flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('sqs:'))).toEqual([])
  })

  it('tells both processes the transport; only the worker gets the queue URLs', () => {
    const worker = containerEnv('worker')
    expect(worker.QUEUE_TRANSPORT).toBe('sqs')
    expect(worker.SQS_QUEUE_URL).toBeDefined()
    expect(worker.SQS_DLQ_URL).toBeDefined()
    const web = containerEnv('web')
    expect(web.QUEUE_TRANSPORT).toBe('sqs')
    expect(web.SQS_QUEUE_URL).toBeUndefined()
  })

  it('adds none of it with the default transport', () => {
    const plain = new MintdeskStack(new App(), 'MintdeskPlainTest', {
      certificateArn: CERT,
      imageDigests: TEST_IMAGE_DIGESTS,
      env: TEST_ENV,
    })
    const json = Template.fromStack(plain).toJSON().Resources as Record<string, Resource>
    expect(Object.values(json).filter((r) => r.Type === 'AWS::SQS::Queue')).toHaveLength(0)
    expect(plain.sqsDeadLetterQueueAlarm).toBeUndefined()
  })
})
