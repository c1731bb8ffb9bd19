import { aws_iam as iam, type Stack } from 'aws-cdk-lib'

export type TaskRoles = { web: iam.Role; worker: iam.Role; migrate: iam.Role }

/** One task role per process, so the signing keys' policy can tell the worker apart. */
export function addTaskRoles(stack: Stack): TaskRoles {
  const ecsTasks = () => new iam.ServicePrincipal('ecs-tasks.amazonaws.com')
  return {
    web: new iam.Role(stack, 'WebTaskRole', {
      assumedBy: ecsTasks(),
      description: 'mintdesk web: no AWS permissions (it never signs)',
    }),
    worker: new iam.Role(stack, 'WorkerTaskRole', {
      assumedBy: ecsTasks(),
      description: 'mintdesk worker: the only principal allowed to sign with the mint keys',
    }),
    migrate: new iam.Role(stack, 'MigrateTaskRole', {
      assumedBy: ecsTasks(),
      description: 'mintdesk migration task: no AWS permissions',
    }),
  }
}
