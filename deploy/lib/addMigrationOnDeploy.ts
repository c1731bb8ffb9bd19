import path from 'node:path'
import {
  CustomResource,
  Duration,
  type aws_ec2 as ec2,
  type aws_ecs as ecs,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_lambda_nodejs as nodejs,
  type Stack,
} from 'aws-cdk-lib'
import { Provider } from 'aws-cdk-lib/custom-resources'
import type { MigrationProperties } from '../lambda/migrate'
import { MIGRATE_CONTAINER } from './addMigrateTask'

const root = path.resolve(import.meta.dirname, '..', '..')
/** the two handlers, one typed file bundled at synth (esbuild from node_modules, no Docker) */
const HANDLER_ENTRY = path.join(root, 'deploy', 'lambda', 'migrate.ts')

export type AddMigrationOnDeployParameters = {
  cluster: ecs.ICluster
  vpc: ec2.IVpc
  appSubnets: ec2.SubnetSelection
  securityGroup: ec2.ISecurityGroup
  taskDefinition: ecs.FargateTaskDefinition
  /** the worker image's digest (the migration runs in it): a new image makes a new run */
  imageDigest: string
}

function handler(stack: Stack, id: string, name: 'onEvent' | 'isComplete', description: string): nodejs.NodejsFunction {
  return new nodejs.NodejsFunction(stack, id, {
    entry: HANDLER_ENTRY,
    handler: name,
    runtime: lambda.Runtime.NODEJS_22_X,
    projectRoot: root,
    depsLockFilePath: path.join(root, 'package-lock.json'),
    // the Lambda Node.js runtime ships the AWS SDK v3
    bundling: { externalModules: ['@aws-sdk/*'] },
    timeout: Duration.minutes(1),
    description,
  })
}

/**
 * A custom resource that runs the migration task and waits until it has exited 0
 * (Step Functions polls every 15 s, up to 30 min); a failure fails the deploy, which
 * rolls back before any service has moved. It runs again whenever its properties
 * change: a new worker image digest makes a new task definition revision. Make the services
 * depend on it, so they roll only after the schema is current.
 */
export function addMigrationOnDeploy(stack: Stack, p: AddMigrationOnDeployParameters): CustomResource {
  const task = p.taskDefinition
  const onEvent = handler(stack, 'MigrateOnEvent', 'onEvent', 'mintdesk: starts the migration task of a deploy')
  const isComplete = handler(
    stack,
    'MigrateIsComplete',
    'isComplete',
    'mintdesk: waits for the migration task of a deploy to exit',
  )
  onEvent.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ecs:RunTask'],
      resources: [task.taskDefinitionArn],
      conditions: { ArnEquals: { 'ecs:cluster': p.cluster.clusterArn } },
    }),
  )
  const passRoles = [task.taskRole.roleArn, task.obtainExecutionRole().roleArn]
  onEvent.addToRolePolicy(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: passRoles }))
  isComplete.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ecs:DescribeTasks'],
      resources: ['*'],
      conditions: { ArnEquals: { 'ecs:cluster': p.cluster.clusterArn } },
    }),
  )
  const provider = new Provider(stack, 'MigrateProvider', {
    onEventHandler: onEvent,
    isCompleteHandler: isComplete,
    queryInterval: Duration.seconds(15),
    totalTimeout: Duration.minutes(30),
  })
  const properties: Omit<MigrationProperties, 'ServiceToken'> = {
    Cluster: p.cluster.clusterArn,
    TaskDefinition: task.taskDefinitionArn,
    ContainerName: MIGRATE_CONTAINER,
    Subnets: p.vpc.selectSubnets(p.appSubnets).subnetIds,
    SecurityGroups: [p.securityGroup.securityGroupId],
    ImageDigest: p.imageDigest,
  }
  return new CustomResource(stack, 'Migration', {
    serviceToken: provider.serviceToken,
    resourceType: 'Custom::MintdeskMigration',
    properties,
  })
}
