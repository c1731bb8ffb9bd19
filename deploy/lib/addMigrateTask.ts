import { aws_ecs as ecs, type aws_iam as iam, type aws_logs as logs, type Stack } from 'aws-cdk-lib'
import { acknowledgeTaskDefinition } from './acknowledgeTaskDefinition'

export const MIGRATE_COMMAND = ['node', 'migrate.mjs']
/** the container whose exit code decides the deploy (deploy/lambda/migrate.ts reads it) */
export const MIGRATE_CONTAINER = 'migrate'

export type AddMigrateTaskParameters = {
  /** the worker image holds migrate.mjs */
  image: ecs.ContainerImage
  role: iam.IRole
  logGroup: logs.ILogGroup
  /** the master user's: the migration owns the schema and creates the runtime roles */
  databaseUrl: string
  dbPassword: ecs.Secret
  /** the runtime roles' passwords, which each migration sets (db/roles/applyDatabaseRoles.ts) */
  rolePasswords: { web: ecs.Secret; worker: ecs.Secret }
}

/**
 * The migration: a one-off task definition (`node migrate.mjs`), not a service. It
 * gets the database (as the master user) and the runtime roles' passwords, nothing
 * else; addMigrationOnDeploy runs it once per deploy.
 */
export function addMigrateTask(stack: Stack, p: AddMigrateTaskParameters): ecs.FargateTaskDefinition {
  const task = new ecs.FargateTaskDefinition(stack, 'MigrateTask', {
    cpu: 256,
    memoryLimitMiB: 512,
    taskRole: p.role,
    runtimePlatform: {
      cpuArchitecture: ecs.CpuArchitecture.X86_64,
      operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
    },
  })
  task.addContainer(MIGRATE_CONTAINER, {
    image: p.image,
    command: MIGRATE_COMMAND,
    essential: true,
    environment: { DATABASE_URL: p.databaseUrl },
    secrets: {
      PGPASSWORD: p.dbPassword,
      WEB_DATABASE_PASSWORD: p.rolePasswords.web,
      WORKER_DATABASE_PASSWORD: p.rolePasswords.worker,
    },
    logging: ecs.LogDrivers.awsLogs({ logGroup: p.logGroup, streamPrefix: 'migrate' }),
  })
  acknowledgeTaskDefinition(task)
  return task
}
