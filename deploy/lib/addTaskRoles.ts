import { aws_iam as iam, type Stack } from 'aws-cdk-lib'

export type TaskRoles = { web: iam.Role; worker: iam.Role; migrate: iam.Role }

/**
 * The trust of a task role: ECS tasks of this account and region only. ECS passes the
 * task's account and ARN when it assumes the role, so another account's ECS (a confused
 * deputy) cannot obtain the worker's signing role. The AWS-documented condition for task
 * roles (aws:SourceAccount, and aws:SourceArn like arn:aws:ecs:REGION:ACCOUNT:*).
 */
export function ecsTasksPrincipal(stack: Stack): iam.IPrincipal {
  return new iam.ServicePrincipal('ecs-tasks.amazonaws.com', {
    conditions: {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:ecs:${stack.region}:${stack.account}:*` },
    },
  })
}

/** One task role per process, so the signing keys' policy can tell the worker apart. */
export function addTaskRoles(stack: Stack): TaskRoles {
  return {
    web: new iam.Role(stack, 'WebTaskRole', {
      assumedBy: ecsTasksPrincipal(stack),
      description: 'mintdesk web: no AWS permissions (it never signs)',
    }),
    worker: new iam.Role(stack, 'WorkerTaskRole', {
      assumedBy: ecsTasksPrincipal(stack),
      description: 'mintdesk worker: the only principal allowed to sign with the mint keys',
    }),
    migrate: new iam.Role(stack, 'MigrateTaskRole', {
      assumedBy: ecsTasksPrincipal(stack),
      description: 'mintdesk migration task: no AWS permissions',
    }),
  }
}
