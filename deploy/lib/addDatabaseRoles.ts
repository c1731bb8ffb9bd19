import { aws_ecs as ecs, type Stack, aws_secretsmanager as secretsmanager } from 'aws-cdk-lib'
import { acknowledgeNag } from './acknowledgeNag'
import type { Database } from './addDatabase'
import { databaseRoleName } from './databaseRoleName'

export type DatabaseRole = {
  /** the role's DATABASE_URL: its own user, no password (PGPASSWORD) */
  databaseUrl: string
  /** its password, generated in Secrets Manager */
  secret: secretsmanager.ISecret
  password: ecs.Secret
}

export type DatabaseRoles = { web: DatabaseRole; worker: DatabaseRole }

/**
 * The runtime database roles (docs/architecture.md invariant 7): a generated password per
 * role in Secrets Manager. The migration task gets both (WEB_/WORKER_DATABASE_PASSWORD)
 * and sets them on the roles it creates (db/roles/applyDatabaseRoles.ts); the web task
 * gets only the web role's as its PGPASSWORD, the worker only the worker's. Neither
 * service sees the master user's secret. Printable ASCII without spaces or URL-special
 * characters, as applyDatabaseRoles requires.
 */
export function addDatabaseRoles(stack: Stack, { db }: { db: Database }): DatabaseRoles {
  const role = (id: string, which: 'web' | 'worker'): DatabaseRole => {
    const secret = new secretsmanager.Secret(stack, id, {
      description: `mintdesk Postgres password of ${databaseRoleName(which)} (the ${which}'s least-privilege role)`,
      generateSecretString: { passwordLength: 40, excludePunctuation: true },
    })
    acknowledgeNag(secret, {
      id: 'AwsSolutions-SMG4',
      reason: `The ${which} keeps this password from its task start for the life of the task and opens new connections with it: a scheduled rotation would break every running ${which} task until redeployed, and an alternating-users rotation would log in as another role, which the ${which} refuses (lib/config/checkDatabaseRole.ts). It is rotated by hand (docs/deploy.md): new value, migration task (sets it on the role), new deployment.`,
    })
    return {
      databaseUrl: db.databaseUrlAs(databaseRoleName(which)),
      secret,
      password: ecs.Secret.fromSecretsManager(secret),
    }
  }
  return { web: role('WebDbPassword', 'web'), worker: role('WorkerDbPassword', 'worker') }
}
