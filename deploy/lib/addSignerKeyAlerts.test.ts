import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { KEY_POLICY_CHANGE_EVENTS } from './addSignerKeyAlerts'
import { MintdeskStack } from './MintdeskStack'
import { TEST_STACK_PROPS } from './testStackProps'

// Invariant 6: the account root may change a signing key's policy (break-glass), never
// in silence. The rules' patterns and targets as synthesized, and what they match among
// CloudTrail events of KMS (matched with EventBridge's documented semantics of the
// operators the patterns use: value lists, anything-but, exists, $or).

type Json = Record<string, unknown>
type Resource = { Type: string; Properties: Json }

let stack: MintdeskStack
let resources: Record<string, Resource>

const idOf = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<MintdeskStack['getLogicalId']>[0]) // a CfnElement
const ruleOf = (rule: MintdeskStack['signerKeyAlerts']['foreignSigns']) => resources[idOf(rule)] as Resource

/** Fn::GetAtt [id, 'Arn'] as a stand-in ARN, so patterns and events can be compared */
function resolveArns(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(resolveArns)
  if (v && typeof v === 'object') {
    const getAtt = (v as Json)['Fn::GetAtt'] as [string, string] | undefined
    if (getAtt?.[1] === 'Arn') return `arn:test:${getAtt[0]}`
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveArns(x)]))
  }
  return v
}

/** the event's values at a pattern key: arrays of objects are flattened, as EventBridge does */
function valuesAt(event: unknown, key: string): unknown[] {
  const at = (x: unknown): unknown[] =>
    Array.isArray(x) ? x.flatMap(at) : x && typeof x === 'object' && key in x ? [(x as Json)[key]] : []
  return at(event).flatMap((v) => (Array.isArray(v) ? v : [v]))
}

function matches(pattern: Json, event: unknown): boolean {
  return Object.entries(pattern).every(([key, p]) => {
    if (key === '$or') return (p as Json[]).some((branch) => matches(branch, event))
    const values = valuesAt(event, key)
    if (Array.isArray(p)) {
      return p.some((m) => {
        if (m && typeof m === 'object' && 'exists' in m) return (m as Json).exists === values.length > 0
        if (m && typeof m === 'object' && 'anything-but' in m)
          return values.some((v) => v !== (m as Json)['anything-but'])
        return values.includes(m)
      })
    }
    // a path absent from the event: only `exists: false` below it can match
    const objects = values.filter((v) => v && typeof v === 'object')
    return objects.length === 0 ? matches(p as Json, {}) : objects.some((v) => matches(p as Json, v))
  })
}

const WORKER_ROLE = () => `arn:test:${idOf(stack.workerTaskRole)}`
const KEY = () => `arn:test:${idOf(stack.signerKeys[0] as unknown as { node: { defaultChild?: unknown } })}`

/** a CloudTrail management event of KMS as EventBridge receives it */
function kmsEvent(eventName: string, userIdentity: Json, keyArn = KEY()): Json {
  return {
    source: 'aws.kms',
    'detail-type': 'AWS API Call via CloudTrail',
    detail: {
      eventSource: 'kms.amazonaws.com',
      eventName,
      userIdentity,
      resources: [{ accountId: '111111111111', type: 'AWS::KMS::Key', ARN: keyArn }],
    },
  }
}
const assumed = (roleArn: string): Json => ({
  type: 'AssumedRole',
  arn: 'arn:aws:sts::111111111111:assumed-role/x/session',
  sessionContext: { sessionIssuer: { type: 'Role', arn: roleArn } },
})
const root: Json = { type: 'Root', arn: 'arn:aws:iam::111111111111:root' }
const iamUser: Json = { type: 'IAMUser', arn: 'arn:aws:iam::111111111111:user/ops' }

beforeAll(() => {
  stack = new MintdeskStack(new App(), 'MintdeskKeyAlertsTest', {
    ...TEST_STACK_PROPS,
    signerKeyNames: ['signer-1', 'signer-2'],
  })
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>
})

describe('alerts on the signing keys (EventBridge on CloudTrail)', () => {
  it('PutKeyPolicy and CreateGrant on any signing key: the pattern, and the alarms topic as its only target', () => {
    const rule = ruleOf(stack.signerKeyAlerts.keyPolicyChanges)
    const keyArns = stack.signerKeys.map((k) => ({ 'Fn::GetAtt': [idOf(k as never), 'Arn'] }))
    expect(keyArns).toHaveLength(2)
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.kms'],
      'detail-type': ['AWS API Call via CloudTrail'],
      detail: {
        eventSource: ['kms.amazonaws.com'],
        eventName: ['PutKeyPolicy', 'CreateGrant'],
        resources: { ARN: keyArns },
      },
    })
    expect(KEY_POLICY_CHANGE_EVENTS).toEqual(['PutKeyPolicy', 'CreateGrant'])
    expect(rule.Properties.State).toBe('ENABLED')
    expect(rule.Properties.Targets).toEqual([{ Arn: { Ref: topicId() }, Id: 'Target0' }])
  })

  it('Sign by anyone but the worker role: anything-but its ARN, or no role at all; read-only events included', () => {
    const rule = ruleOf(stack.signerKeyAlerts.foreignSigns)
    const workerArn = { 'Fn::GetAtt': [idOf(stack.workerTaskRole), 'Arn'] }
    const detail = (rule.Properties.EventPattern as { detail: Json }).detail
    expect(detail.eventName).toEqual(['Sign'])
    expect(detail.$or).toEqual([
      { userIdentity: { sessionContext: { sessionIssuer: { arn: [{ 'anything-but': workerArn }] } } } },
      { userIdentity: { sessionContext: { sessionIssuer: { arn: [{ exists: false }] } } } },
    ])
    expect(rule.Properties.State).toBe('ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS')
    expect(rule.Properties.Targets).toEqual([{ Arn: { Ref: topicId() }, Id: 'Target0' }])
  })

  it('matches what it should among KMS events, and not the worker signing', () => {
    const policyChanges = resolveArns(ruleOf(stack.signerKeyAlerts.keyPolicyChanges).Properties.EventPattern) as Json
    const foreignSigns = resolveArns(ruleOf(stack.signerKeyAlerts.foreignSigns).Properties.EventPattern) as Json
    // the worker's own signatures: no alert
    expect(matches(foreignSigns, kmsEvent('Sign', assumed(WORKER_ROLE())))).toBe(false)
    // anyone else signing, or trying to: alert
    expect(matches(foreignSigns, kmsEvent('Sign', assumed('arn:aws:iam::111111111111:role/admin')))).toBe(true)
    expect(matches(foreignSigns, kmsEvent('Sign', root))).toBe(true)
    expect(matches(foreignSigns, kmsEvent('Sign', iamUser))).toBe(true)
    // another key, another call: not this rule
    expect(matches(foreignSigns, kmsEvent('Sign', root, 'arn:aws:kms:eu-west-1:111111111111:key/other'))).toBe(false)
    expect(matches(foreignSigns, kmsEvent('GetPublicKey', root))).toBe(false)
    // key policy and grants: whoever makes them, the worker included
    for (const name of ['PutKeyPolicy', 'CreateGrant']) {
      expect(matches(policyChanges, kmsEvent(name, root)), name).toBe(true)
      expect(matches(policyChanges, kmsEvent(name, assumed(WORKER_ROLE()))), name).toBe(true)
    }
    expect(matches(policyChanges, kmsEvent('DescribeKey', root))).toBe(false)
    expect(matches(policyChanges, kmsEvent('PutKeyPolicy', root, 'arn:aws:kms:eu-west-1:1:key/other'))).toBe(false)
  })

  it('the topic lets exactly these two rules publish, alarms of this account publish, and nothing without TLS', () => {
    const [[, policy] = ['', { Type: '', Properties: {} }]] = Object.entries(resources).filter(
      ([, r]) => r.Type === 'AWS::SNS::TopicPolicy',
    )
    const statements = (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement
    const events = statements.filter((s) => JSON.stringify(s.Principal).includes('events.amazonaws.com'))
    expect(events).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Condition: {
          ArnEquals: {
            'aws:SourceArn': [
              { 'Fn::GetAtt': [idOf(stack.signerKeyAlerts.keyPolicyChanges), 'Arn'] },
              { 'Fn::GetAtt': [idOf(stack.signerKeyAlerts.foreignSigns), 'Arn'] },
            ],
          },
        },
      }),
    ])
    const alarms = statements.find((s) => JSON.stringify(s.Principal).includes('cloudwatch.amazonaws.com'))
    expect(alarms).toMatchObject({ Effect: 'Allow', Action: 'sns:Publish' })
    expect(JSON.stringify(alarms?.Condition)).toContain(':alarm:*')
    expect(JSON.stringify(alarms?.Condition)).toContain('aws:SourceAccount')
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: '*',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    )
  })
})

function topicId(): string {
  const topics = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SNS::Topic')
  expect(topics).toHaveLength(1)
  return topics[0]?.[0] as string
}

describe('the matcher itself', () => {
  it('knows anything-but, exists and $or as EventBridge documents them', () => {
    expect(matches({ a: [{ 'anything-but': 'x' }] }, { a: 'y' })).toBe(true)
    expect(matches({ a: [{ 'anything-but': 'x' }] }, { a: 'x' })).toBe(false)
    expect(matches({ a: [{ 'anything-but': 'x' }] }, {})).toBe(false) // absent: anything-but does not match
    expect(matches({ a: [{ exists: false }] }, {})).toBe(true)
    expect(matches({ a: { b: [{ exists: false }] } }, { c: 1 })).toBe(true)
    expect(matches({ a: { b: [{ exists: false }] } }, { a: { b: 1 } })).toBe(false)
    expect(matches({ a: { b: [1] } }, { c: 1 })).toBe(false)
    expect(matches({ a: { b: [1] } }, { a: [{ b: 2 }, { b: 1 }] })).toBe(true)
    expect(matches({ $or: [{ a: [1] }, { b: [2] }] }, { b: 2 })).toBe(true)
    expect(matches({ $or: [{ a: [1] }, { b: [2] }] }, { c: 3 })).toBe(false)
  })
})
