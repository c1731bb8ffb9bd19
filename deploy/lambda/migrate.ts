import { DescribeTasksCommand, ECSClient, RunTaskCommand } from '@aws-sdk/client-ecs'

// The two handlers of the migration custom resource (deploy/lib/addMigrationOnDeploy.ts), bundled
// by the CDK's NodejsFunction at synth. @aws-sdk/client-ecs is left out of the bundle:
// the Lambda Node.js runtime ships the AWS SDK v3.

/** The custom resource's properties, as addMigration.ts sets them (CloudFormation sends strings). */
export type MigrationProperties = {
  ServiceToken: string
  Cluster: string
  TaskDefinition: string
  ContainerName: string
  Subnets: string[]
  SecurityGroups: string[]
  /** the worker image's digest: a new one makes CloudFormation update the resource, so the migration runs again */
  ImageDigest: string
}

/** What the CDK Provider framework passes to onEvent (a CloudFormation custom resource request). */
export type MigrationEvent = {
  RequestType: 'Create' | 'Update' | 'Delete'
  PhysicalResourceId?: string
  ResourceProperties: MigrationProperties
}

/** What it passes to isComplete: the request plus what onEvent answered. */
export type MigrationCompleteEvent = MigrationEvent & { Data?: { TaskArn?: string } }

export type OnEventResponse = { PhysicalResourceId?: string; Data?: { TaskArn: string } }
export type IsCompleteResponse = { IsComplete: boolean; Data?: { TaskArn: string } }

const PHYSICAL_ID = 'mintdesk-migration'

let client: ECSClient | undefined
function ecs(): ECSClient {
  client ??= new ECSClient({})
  return client
}

/** Starts the migration task of a deploy; a Delete does nothing (the schema stays). */
export async function onEvent(event: MigrationEvent): Promise<OnEventResponse> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId }
  const p = event.ResourceProperties
  const out = await ecs().send(
    new RunTaskCommand({
      cluster: p.Cluster,
      taskDefinition: p.TaskDefinition,
      launchType: 'FARGATE',
      count: 1,
      startedBy: 'mintdesk-deploy',
      networkConfiguration: {
        awsvpcConfiguration: { subnets: p.Subnets, securityGroups: p.SecurityGroups, assignPublicIp: 'DISABLED' },
      },
    }),
  )
  const taskArn = out.tasks?.[0]?.taskArn
  if (!taskArn) throw new Error(`RunTask started no task: ${JSON.stringify(out.failures ?? [])}`)
  console.log(JSON.stringify({ msg: 'migration task started', taskArn, imageDigest: p.ImageDigest }))
  return { PhysicalResourceId: PHYSICAL_ID, Data: { TaskArn: taskArn } }
}

/**
 * Polled by the Provider framework until the task has stopped: complete when the
 * migrate container exited 0, else an error that fails (and rolls back) the deploy.
 */
export async function isComplete(event: MigrationCompleteEvent): Promise<IsCompleteResponse> {
  if (event.RequestType === 'Delete') return { IsComplete: true }
  const p = event.ResourceProperties
  const taskArn = event.Data?.TaskArn
  if (!taskArn) throw new Error('isComplete: onEvent returned no TaskArn')
  const out = await ecs().send(new DescribeTasksCommand({ cluster: p.Cluster, tasks: [taskArn] }))
  const task = out.tasks?.[0]
  if (task?.lastStatus !== 'STOPPED') return { IsComplete: false }
  const container = (task.containers ?? []).find((c) => c.name === p.ContainerName)
  if (container?.exitCode === 0) return { IsComplete: true, Data: { TaskArn: taskArn } }
  throw new Error(
    `migration task ${taskArn} failed: exit ${container?.exitCode}, ${task.stoppedReason ?? ''} ${container?.reason ?? ''} (see its CloudWatch log stream)`,
  )
}
