import { aws_ec2 as ec2, aws_logs as logs, RemovalPolicy, type Stack } from 'aws-cdk-lib'

export type AddNetworkParameters = { natGateways?: number }

export type Network = {
  vpc: ec2.Vpc
  /** where the tasks run: private subnets with egress (KMS, Secrets Manager, ECR, the RPC through NAT) */
  appSubnets: ec2.SubnetSelection
  webSg: ec2.SecurityGroup
  workerSg: ec2.SecurityGroup
  migrateSg: ec2.SecurityGroup
  /** the VPC's flow log (all traffic, accepted and rejected) and its log group */
  flowLogs: logs.LogGroup
}

/**
 * The VPC over 2 AZs: public subnets (ALB, NAT), private subnets with egress (the
 * tasks), isolated subnets (RDS); one security group per process; and a flow log of all
 * its traffic (accepted and rejected) in CloudWatch Logs, kept a year like the app's logs:
 * who talked to the database, where the tasks connected out to.
 */
export function addNetwork(stack: Stack, { natGateways }: AddNetworkParameters): Network {
  const vpc = new ec2.Vpc(stack, 'Vpc', {
    maxAzs: 2,
    natGateways: natGateways ?? 2,
    subnetConfiguration: [
      { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
      { name: 'app', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      { name: 'db', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
    ],
  })
  const flowLogs = new logs.LogGroup(stack, 'VpcFlowLogs', {
    retention: logs.RetentionDays.ONE_YEAR,
    removalPolicy: RemovalPolicy.RETAIN,
  })
  vpc.addFlowLog('FlowLog', {
    destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogs),
    trafficType: ec2.FlowLogTrafficType.ALL,
  })
  return {
    vpc,
    flowLogs,
    appSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
    webSg: new ec2.SecurityGroup(stack, 'WebSg', { vpc, description: 'mintdesk web tasks' }),
    workerSg: new ec2.SecurityGroup(stack, 'WorkerSg', { vpc, description: 'mintdesk worker tasks (no inbound)' }),
    migrateSg: new ec2.SecurityGroup(stack, 'MigrateSg', { vpc, description: 'mintdesk migration task (no inbound)' }),
  }
}
