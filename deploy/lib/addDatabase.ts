import {
  Duration,
  aws_ec2 as ec2,
  aws_ecs as ecs,
  RemovalPolicy,
  aws_rds as rds,
  type Stack,
  aws_secretsmanager as secretsmanager,
} from 'aws-cdk-lib'
import { acknowledgeNag } from './acknowledgeNag'

export const DB_NAME = 'mintdesk'
export const DB_USER = 'mintdesk'

/**
 * The RDS engine version, pinned to a full minor version that RDS offers: the bare major
 * version ('17') cannot create an instance (cfn-lint W3691) and would drift with AWS's
 * default. To move it: pick the next minor of `rds.PostgresEngineVersion` (its VER_17_x
 * list follows what RDS offers), check it with `aws rds describe-db-engine-versions
 * --engine postgres --engine-version 17.x`, change it here and in the pinned value of
 * deploy/lib/template.lint.test.ts, and deploy: RDS upgrades the minor version in place
 * (a short restart of the database, in the maintenance of that deploy; docs/deploy.md).
 */
export const DB_ENGINE_VERSION = rds.PostgresEngineVersion.VER_17_9

/** the master password goes into PGPASSWORD, never into a URL: still, keep it URL-safe (generated and rotated alike) */
export const DB_PASSWORD_EXCLUDED_CHARACTERS = ` %+~\`#$&*()|[]{}:;<>?!'/@"\\,=^`
/** how often Secrets Manager rotates the master password */
export const DB_MASTER_ROTATION = Duration.days(30)

export type AddDatabaseParameters = {
  vpc: ec2.IVpc
  /** the security groups allowed in on 5432, each with who it is (the rule's description) */
  clients: (readonly [ec2.ISecurityGroup, string])[]
  /** where the master secret's rotation Lambda runs: it needs the database and Secrets Manager (through NAT) */
  rotationSubnets: ec2.SubnetSelection
  instanceType?: ec2.InstanceType
  multiAz?: boolean
}

export type Database = {
  instance: rds.DatabaseInstance
  /**
   * DATABASE_URL of the migration task, the owner's (RDS's master user): no password in it (postgres.js and
   * node-postgres read PGPASSWORD)
   */
  databaseUrl: string
  /** the same database as another user (the runtime roles of deploy/lib/addDatabaseRoles.ts) */
  databaseUrlAs: (user: string) => string
  /** PGPASSWORD of the migration task, from the generated master secret */
  password: ecs.Secret
  secretArn: string
}

/**
 * RDS Postgres 17 (DB_ENGINE_VERSION, a pinned minor): encrypted, private (isolated subnets), TLS only, its password in
 * Secrets Manager (rotated every DB_MASTER_ROTATION), reachable only from the given clients' security groups and the
 * rotation's.
 */
export function addDatabase(stack: Stack, p: AddDatabaseParameters): Database {
  const dbSg = new ec2.SecurityGroup(stack, 'DbSg', {
    vpc: p.vpc,
    description: 'mintdesk Postgres: the app tasks only',
    allowAllOutbound: false,
  })
  for (const [sg, who] of p.clients) dbSg.addIngressRule(sg, ec2.Port.tcp(5432), `Postgres from the ${who}`)
  const engine = rds.DatabaseInstanceEngine.postgres({ version: DB_ENGINE_VERSION })
  const instance = new rds.DatabaseInstance(stack, 'Db', {
    engine,
    instanceType: p.instanceType ?? ec2.InstanceType.of(ec2.InstanceClass.T4G, ec2.InstanceSize.MEDIUM),
    vpc: p.vpc,
    vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
    securityGroups: [dbSg],
    publiclyAccessible: false,
    multiAz: p.multiAz ?? true,
    databaseName: DB_NAME,
    credentials: rds.Credentials.fromGeneratedSecret(DB_USER, { excludeCharacters: DB_PASSWORD_EXCLUDED_CHARACTERS }),
    storageEncrypted: true,
    storageType: rds.StorageType.GP3,
    allocatedStorage: 20,
    maxAllocatedStorage: 200,
    backupRetention: Duration.days(14),
    deletionProtection: true,
    removalPolicy: RemovalPolicy.SNAPSHOT,
    cloudwatchLogsExports: ['postgresql'],
    parameterGroup: new rds.ParameterGroup(stack, 'DbParams', { engine, parameters: { 'rds.force_ssl': '1' } }),
  })
  if (!instance.secret) throw new Error('the database has no generated secret')
  acknowledgeNag(instance, {
    id: 'AwsSolutions-RDS11',
    reason:
      'Postgres keeps its default port 5432: the instance is in isolated subnets with no route in or out, and its security group admits only the web, worker, migration and rotation security groups; a non-default port would hide nothing from them and nothing else can reach it.',
  })
  // the master password rotates through Secrets Manager's hosted PostgreSQL single-user rotation
  // (a Lambda AWS manages, in the app subnets): only the migration task and the one-off tools log
  // in as the master user, each reading the secret at its start
  const rotationSg = new ec2.SecurityGroup(stack, 'DbRotationSg', {
    vpc: p.vpc,
    description: 'mintdesk: the master secret rotation Lambda',
  })
  dbSg.addIngressRule(rotationSg, ec2.Port.tcp(5432), 'Postgres from the master secret rotation')
  instance.secret.addRotationSchedule('Rotation', {
    hostedRotation: secretsmanager.HostedRotation.postgreSqlSingleUser({
      vpc: p.vpc,
      vpcSubnets: p.rotationSubnets,
      securityGroups: [rotationSg],
      excludeCharacters: DB_PASSWORD_EXCLUDED_CHARACTERS,
    }),
    automaticallyAfter: DB_MASTER_ROTATION,
    // not during the deploy that adds it: a migration task starting mid-rotation would read the old password
    rotateImmediatelyOnUpdate: false,
  })
  const databaseUrlAs = (user: string) =>
    `postgres://${user}@${instance.dbInstanceEndpointAddress}:${instance.dbInstanceEndpointPort}/${DB_NAME}?sslmode=verify-full`
  return {
    instance,
    databaseUrl: databaseUrlAs(DB_USER),
    databaseUrlAs,
    password: ecs.Secret.fromSecretsManager(instance.secret, 'password'),
    secretArn: instance.secret.secretArn,
  }
}
