import { aws_ec2 as ec2, type Stack } from 'aws-cdk-lib'

export type AddNetworkParameters = { natGateways?: number }

export type Network = {
  vpc: ec2.Vpc
  /** where the tasks run: private subnets with egress (KMS, Secrets Manager, ECR, the RPC through NAT) */
  appSubnets: ec2.SubnetSelection
  webSg: ec2.SecurityGroup
  workerSg: ec2.SecurityGroup
  migrateSg: ec2.SecurityGroup
}

/**
 * The VPC over 2 AZs: public subnets (ALB, NAT), private subnets with egress (the
 * tasks), isolated subnets (RDS); and one security group per process.
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
  return {
    vpc,
    appSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
    webSg: new ec2.SecurityGroup(stack, 'WebSg', { vpc, description: 'mintdesk web tasks' }),
    workerSg: new ec2.SecurityGroup(stack, 'WorkerSg', { vpc, description: 'mintdesk worker tasks (no inbound)' }),
    migrateSg: new ec2.SecurityGroup(stack, 'MigrateSg', { vpc, description: 'mintdesk migration task (no inbound)' }),
  }
}
