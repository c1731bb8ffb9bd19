import {
  Duration,
  type aws_ec2 as ec2,
  aws_ecs as ecs,
  type aws_iam as iam,
  type aws_logs as logs,
  type Stack,
} from 'aws-cdk-lib'
import { acknowledgeTaskDefinition } from './acknowledgeTaskDefinition'
import { containerHealthCheck } from './containerHealthCheck'

/** ECS waits this long after SIGTERM before SIGKILL; the worker drains in ~25 s. */
export const WORKER_STOP_TIMEOUT = Duration.seconds(30)
export const WORKER_DESIRED_COUNT = 2

export type AddWorkerServiceParameters = {
  cluster: ecs.ICluster
  image: ecs.ContainerImage
  role: iam.IRole
  logGroup: logs.ILogGroup
  appSubnets: ec2.SubnetSelection
  securityGroup: ec2.ISecurityGroup
  /** the environment both processes share: DATABASE_URL, the chain's */
  environment: Record<string, string>
  /** the signing keys' ids, in order (KMS_KEY_IDS) */
  kmsKeyIds: string
  concurrency?: number
  secrets: { PGPASSWORD: ecs.Secret; RPC_URLS: ecs.Secret; SMTP_URL: ecs.Secret; WEBHOOK_SECRETS_KEY: ecs.Secret }
}

/**
 * The worker: its own service with no load balancer, WORKER_DESIRED_COUNT tasks, one
 * kept running while the other is replaced, and a stopTimeout that lets it finish the
 * jobs in flight after SIGTERM.
 */
export function addWorkerService(stack: Stack, p: AddWorkerServiceParameters): ecs.FargateService {
  const task = new ecs.FargateTaskDefinition(stack, 'WorkerTask', {
    cpu: 512,
    memoryLimitMiB: 1024,
    taskRole: p.role,
    runtimePlatform: {
      cpuArchitecture: ecs.CpuArchitecture.X86_64,
      operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
    },
  })
  task.addContainer('worker', {
    image: p.image,
    essential: true,
    stopTimeout: WORKER_STOP_TIMEOUT,
    healthCheck: containerHealthCheck({ startPeriod: Duration.seconds(20) }),
    environment: {
      ...p.environment,
      KMS_KEY_IDS: p.kmsKeyIds,
      WORKER_CONCURRENCY: String(p.concurrency ?? 8),
    },
    secrets: p.secrets,
    logging: ecs.LogDrivers.awsLogs({ logGroup: p.logGroup, streamPrefix: 'worker' }),
  })
  acknowledgeTaskDefinition(task)
  return new ecs.FargateService(stack, 'WorkerService', {
    cluster: p.cluster,
    taskDefinition: task,
    desiredCount: WORKER_DESIRED_COUNT,
    // one worker keeps running while the other is replaced
    minHealthyPercent: 50,
    maxHealthyPercent: 200,
    circuitBreaker: { rollback: true },
    vpcSubnets: p.appSubnets,
    securityGroups: [p.securityGroup],
    assignPublicIp: false,
  })
}
