import path from 'node:path'
import {
  CustomResource,
  Duration,
  type aws_ec2 as ec2,
  type aws_ecs as ecs,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_lambda_nodejs as nodejs,
  RemovalPolicy,
  type Stack,
  aws_stepfunctions as sfn,
} from 'aws-cdk-lib'
import { Provider } from 'aws-cdk-lib/custom-resources'
import type { MigrationProperties } from '../lambda/migrate'
import { acknowledgeNag, wildcardResource } from './acknowledgeNag'
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

/** a log group of the deploy's Lambda functions or its waiter: kept a year, like the app's */
function logGroup(stack: Stack, id: string): logs.LogGroup {
  return new logs.LogGroup(stack, id, { retention: logs.RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN })
}

/** a Lambda execution role that may write to its log group and nothing else (no AWS managed policy) */
function lambdaRole(stack: Stack, id: string, description: string, logs: logs.ILogGroup): iam.Role {
  const role = new iam.Role(stack, id, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description })
  role.addToPolicy(
    new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logs.logGroupArn] }),
  )
  return role
}

function handler(stack: Stack, id: string, name: 'onEvent' | 'isComplete', description: string): nodejs.NodejsFunction {
  const logs = logGroup(stack, `${id}Logs`)
  return new nodejs.NodejsFunction(stack, id, {
    entry: HANDLER_ENTRY,
    handler: name,
    runtime: lambda.Runtime.NODEJS_24_X,
    projectRoot: root,
    depsLockFilePath: path.join(root, 'package-lock.json'),
    // the Lambda Node.js runtime ships the AWS SDK v3
    bundling: { externalModules: ['@aws-sdk/*'] },
    timeout: Duration.minutes(1),
    description,
    logGroup: logs,
    role: lambdaRole(stack, `${id}Role`, description, logs),
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
  // the tasks of this cluster; which one is known only once onEvent has started it
  const clusterTasks = `arn:${stack.partition}:ecs:${stack.region}:${stack.account}:task/${p.cluster.clusterName}/*`
  isComplete.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ecs:DescribeTasks'],
      resources: [clusterTasks],
      conditions: { ArnEquals: { 'ecs:cluster': p.cluster.clusterArn } },
    }),
  )
  acknowledgeNag(isComplete.role as iam.Role, {
    id: 'AwsSolutions-IAM5',
    appliesTo: [wildcardResource(stack, clusterTasks)],
    reason:
      'isComplete describes the migration task onEvent started, whose id exists only at run time: the resource is every task of this cluster (task/<cluster>/*), with the ecs:cluster condition on the same cluster; DescribeTasks only reads.',
  })
  // the provider framework's own functions and waiter, on roles and log groups of ours (no AWS managed policy)
  const frameworkLogs = logGroup(stack, 'MigrateProviderLogs')
  const provider = new Provider(stack, 'MigrateProvider', {
    onEventHandler: onEvent,
    isCompleteHandler: isComplete,
    queryInterval: Duration.seconds(15),
    totalTimeout: Duration.minutes(30),
    logGroup: frameworkLogs,
    frameworkOnEventRole: lambdaRole(
      stack,
      'MigrateProviderOnEventRole',
      'mintdesk: the custom resource framework, invokes onEvent',
      frameworkLogs,
    ),
    frameworkCompleteAndTimeoutRole: lambdaRole(
      stack,
      'MigrateProviderWaitRole',
      'mintdesk: the custom resource framework, polls isComplete',
      frameworkLogs,
    ),
    disableWaiterStateMachineLogging: false,
    waiterStateMachineLogOptions: {
      destination: logGroup(stack, 'MigrateWaiterLogs'),
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  })
  acknowledgeFramework(stack, provider, [onEvent, isComplete])
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

/** the findings of CDK's custom resource framework (Provider) that are its design, acknowledged with why */
function acknowledgeFramework(stack: Stack, provider: Provider, handlers: lambda.IFunction[]): void {
  const anyVersion = (fn: lambda.IFunction) => wildcardResource(stack, `${fn.functionArn}:*`)
  for (const id of ['MigrateProviderOnEventRole', 'MigrateProviderWaitRole']) {
    acknowledgeNag(stack.node.findChild(id), {
      id: 'AwsSolutions-IAM5',
      appliesTo: handlers.map(anyVersion),
      reason:
        "CDK's custom resource framework may invoke any version of the two migration handlers (the function ARN and ARN:*, as the Provider grants it): only these two functions, nothing else.",
    })
  }
  const framework = (id: string) => provider.node.findChild(id) as lambda.IFunction
  acknowledgeNag(
    provider.node.findChild('waiter-state-machine'),
    {
      id: 'AwsSolutions-IAM5',
      appliesTo: [
        ...['framework-isComplete', 'framework-onTimeout'].map((id) => anyVersion(framework(id))),
        'Resource::*',
      ],
      reason:
        "The waiter state machine invokes any version of the framework's isComplete and onTimeout functions (as the Provider grants it), and delivers its execution logs to CloudWatch Logs, whose log-delivery actions (logs:CreateLogDelivery and the like) IAM cannot scope to a resource.",
    },
    {
      id: 'AwsSolutions-SF2',
      reason:
        "The waiter is CDK's polling loop around isComplete, one execution per deploy: its execution history is logged in full (level ALL, MigrateWaiterLogs) and the handlers log every call; X-Ray tracing would add a trace of the same two Lambda invocations.",
    },
  )
}
