import { DescribeTasksCommand, ECSClient, RunTaskCommand } from '@aws-sdk/client-ecs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isComplete, type MigrationEvent, onEvent } from './migrate'

// The migration custom resource's handlers against a stubbed ECS API (AWS is the one
// third party here; the deploy itself proves the calls against the real service).

const properties: MigrationEvent['ResourceProperties'] = {
  ServiceToken: 'arn:aws:lambda:eu-west-1:111111111111:function:provider',
  Cluster: 'arn:aws:ecs:eu-west-1:111111111111:cluster/mintdesk',
  TaskDefinition: 'arn:aws:ecs:eu-west-1:111111111111:task-definition/migrate:7',
  ContainerName: 'migrate',
  Subnets: ['subnet-1', 'subnet-2'],
  SecurityGroups: ['sg-1'],
  ImageDigest: `sha256:${'ab'.repeat(32)}`,
}
const TASK_ARN = 'arn:aws:ecs:eu-west-1:111111111111:task/mintdesk/0123'

function stubEcs(answer: (command: unknown) => unknown) {
  const commands: unknown[] = []
  // ECSClient.send is overloaded; the stub stands in for its promise form only
  vi.spyOn(ECSClient.prototype, 'send').mockImplementation(((command: unknown) => {
    commands.push(command)
    return Promise.resolve(answer(command))
  }) as ECSClient['send'])
  return commands
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('onEvent', () => {
  it('starts one Fargate task of the migration in the private subnets and returns its ARN', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const commands = stubEcs(() => ({ tasks: [{ taskArn: TASK_ARN }], failures: [] }))
    const res = await onEvent({
      RequestType: 'Update',
      PhysicalResourceId: 'mintdesk-migration',
      ResourceProperties: properties,
    })
    expect(res).toEqual({ PhysicalResourceId: 'mintdesk-migration', Data: { TaskArn: TASK_ARN } })
    expect(commands).toHaveLength(1)
    const run = commands[0] as RunTaskCommand
    expect(run).toBeInstanceOf(RunTaskCommand)
    expect(run.input).toMatchObject({
      cluster: properties.Cluster,
      taskDefinition: properties.TaskDefinition,
      launchType: 'FARGATE',
      count: 1,
      networkConfiguration: {
        awsvpcConfiguration: {
          subnets: properties.Subnets,
          securityGroups: properties.SecurityGroups,
          assignPublicIp: 'DISABLED',
        },
      },
    })
  })

  it('fails the deploy when ECS started no task', async () => {
    stubEcs(() => ({ tasks: [], failures: [{ reason: 'RESOURCE:MEMORY' }] }))
    await expect(onEvent({ RequestType: 'Create', ResourceProperties: properties })).rejects.toThrow(
      /RunTask started no task: .*RESOURCE:MEMORY/,
    )
  })

  it('does nothing on Delete: the schema stays', async () => {
    const commands = stubEcs(() => ({}))
    await expect(
      onEvent({ RequestType: 'Delete', PhysicalResourceId: 'mintdesk-migration', ResourceProperties: properties }),
    ).resolves.toEqual({
      PhysicalResourceId: 'mintdesk-migration',
    })
    expect(commands).toHaveLength(0)
  })
})

describe('isComplete', () => {
  const event = { RequestType: 'Create' as const, ResourceProperties: properties, Data: { TaskArn: TASK_ARN } }

  it('waits while the task runs', async () => {
    const commands = stubEcs(() => ({ tasks: [{ lastStatus: 'RUNNING', containers: [] }] }))
    await expect(isComplete(event)).resolves.toEqual({ IsComplete: false })
    expect(commands[0]).toBeInstanceOf(DescribeTasksCommand)
    expect((commands[0] as DescribeTasksCommand).input).toEqual({ cluster: properties.Cluster, tasks: [TASK_ARN] })
  })

  it('completes when the migrate container exited 0', async () => {
    stubEcs(() => ({ tasks: [{ lastStatus: 'STOPPED', containers: [{ name: 'migrate', exitCode: 0 }] }] }))
    await expect(isComplete(event)).resolves.toEqual({ IsComplete: true, Data: { TaskArn: TASK_ARN } })
  })

  it('fails the deploy, with the exit code and the reasons, when it exited otherwise', async () => {
    stubEcs(() => ({
      tasks: [
        {
          lastStatus: 'STOPPED',
          stoppedReason: 'Essential container exited',
          containers: [{ name: 'migrate', exitCode: 1 }],
        },
      ],
    }))
    await expect(isComplete(event)).rejects.toThrow(/migration task .* failed: exit 1, Essential container exited/)
  })
})
