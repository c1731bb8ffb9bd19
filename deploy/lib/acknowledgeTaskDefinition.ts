import type { aws_ecs as ecs } from 'aws-cdk-lib'
import { acknowledgeNag } from './acknowledgeNag'

/**
 * The two cdk-nag findings every task definition of the stack has, acknowledged on it
 * with their reasons. Call it after the task definition's containers are added (the
 * execution role's policy exists then).
 */
export function acknowledgeTaskDefinition(task: ecs.TaskDefinition): void {
  acknowledgeNag(task, {
    id: 'AwsSolutions-ECS2',
    reason:
      'The plain environment holds configuration only (chain id, token address, URLs without credentials, queue URLs, limits); every secret (database passwords, AUTH_SECRET, METRICS_TOKEN, RPC and SMTP URLs, WEBHOOK_SECRETS_KEY) comes from Secrets Manager at task start, which deploy/lib/MintdeskStack.test.ts asserts for every container.',
  })
  acknowledgeNag(task.obtainExecutionRole(), {
    id: 'AwsSolutions-IAM5',
    appliesTo: ['Resource::*'],
    reason:
      "The one wildcard of the execution role is ecr:GetAuthorizationToken, which IAM cannot scope to a resource; the image pulls are scoped to the repository, the logs to the log group, the secrets to the task's own secrets.",
  })
}
