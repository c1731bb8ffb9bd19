import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { MintdeskStack } from './MintdeskStack'
import { TEST_ENV, TEST_STACK_PROPS } from './testStackProps'

// Confused-deputy protection on the task roles' trust (the worker's may sign mints): only
// ECS tasks of this account and region may assume them.

type Statement = { Effect: string; Action: string | string[]; Principal?: unknown; Condition?: unknown }

let stack: MintdeskStack
let template: Template

function trustOf(role: MintdeskStack['workerTaskRole']): Statement[] {
  // the AWS::IAM::Role
  const id = stack.getLogicalId(role.node.defaultChild as Parameters<MintdeskStack['getLogicalId']>[0])
  const resources = template.toJSON().Resources as Record<string, { Properties: Record<string, unknown> }>
  const document = resources[id]?.Properties.AssumeRolePolicyDocument as { Statement: Statement[] } | undefined
  if (!document) throw new Error(`no trust policy on ${id}`)
  return document.Statement
}

beforeAll(() => {
  stack = new MintdeskStack(new App(), 'MintdeskTrustTest', TEST_STACK_PROPS)
  template = Template.fromStack(stack)
})

describe('the task roles trust ECS tasks of this account and region only', () => {
  it.each(['worker', 'web'] as const)('%s: aws:SourceAccount and aws:SourceArn on ecs-tasks.amazonaws.com', (name) => {
    const role = name === 'worker' ? stack.workerTaskRole : stack.webTaskRole
    const statements = trustOf(role)
    expect(statements).toHaveLength(1)
    expect(statements[0]).toEqual({
      Effect: 'Allow',
      Action: 'sts:AssumeRole',
      Principal: { Service: 'ecs-tasks.amazonaws.com' },
      Condition: {
        StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        ArnLike: {
          'aws:SourceArn': {
            'Fn::Join': [
              '',
              ['arn:', { Ref: 'AWS::Partition' }, `:ecs:${TEST_ENV.region}:`, { Ref: 'AWS::AccountId' }, ':*'],
            ],
          },
        },
      },
    })
  })

  it('every role ECS tasks assume carries both conditions, the migration task included (execution roles aside)', () => {
    const resources = template.toJSON().Resources as Record<
      string,
      { Type: string; Properties: Record<string, unknown> }
    >
    const taskRoles = Object.entries(resources).filter(
      ([id, r]) =>
        r.Type === 'AWS::IAM::Role' &&
        !id.includes('ExecutionRole') &&
        JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('ecs-tasks.amazonaws.com'),
    )
    expect(taskRoles.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'MigrateTaskRole',
      'WebTaskRole',
      'WorkerTaskRole',
    ])
    for (const [id, r] of taskRoles) {
      const condition = JSON.stringify(r.Properties.AssumeRolePolicyDocument)
      expect(condition, id).toContain('aws:SourceAccount')
      expect(condition, id).toContain('aws:SourceArn')
    }
  })
})
