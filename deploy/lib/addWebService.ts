import {
  aws_certificatemanager as acm,
  Duration,
  type aws_ec2 as ec2,
  aws_ecs as ecs,
  aws_ecs_patterns as ecsPatterns,
  aws_elasticloadbalancingv2 as elbv2,
  type aws_iam as iam,
  type aws_logs as logs,
  type Stack,
} from 'aws-cdk-lib'
import { containerHealthCheck } from './containerHealthCheck'

export const WEB_PORT = 3000
export const READY_PATH = '/api/ready'

export type AddWebServiceParameters = {
  cluster: ecs.ICluster
  image: ecs.ContainerImage
  role: iam.IRole
  logGroup: logs.ILogGroup
  appSubnets: ec2.SubnetSelection
  securityGroup: ec2.ISecurityGroup
  /** ACM certificate for the ALB's HTTPS listener (production cookies are Secure-only) */
  certificateArn: string
  /** the environment both processes share: DATABASE_URL, the chain's */
  environment: Record<string, string>
  appUrl: string
  oidcIssuer: string
  oidcClientId: string
  secrets: {
    PGPASSWORD: ecs.Secret
    AUTH_SECRET: ecs.Secret
    METRICS_TOKEN: ecs.Secret
    OIDC_CLIENT_SECRET: ecs.Secret
    RPC_URL: ecs.Secret
    /** seals a new webhook endpoint's signing secret */
    WEBHOOK_SECRETS_KEY: ecs.Secret
  }
  desiredCount?: number
}

/**
 * The web: the Next.js server behind a public HTTPS ALB (HTTP redirects), its target
 * ready when GET /api/ready answers 200 (database up, migrations current).
 */
export function addWebService(
  stack: Stack,
  p: AddWebServiceParameters,
): ecsPatterns.ApplicationLoadBalancedFargateService {
  const task = new ecs.FargateTaskDefinition(stack, 'WebTask', {
    cpu: 512,
    memoryLimitMiB: 1024,
    taskRole: p.role,
    runtimePlatform: {
      cpuArchitecture: ecs.CpuArchitecture.X86_64,
      operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
    },
  })
  task.addContainer('web', {
    image: p.image,
    essential: true,
    portMappings: [{ containerPort: WEB_PORT }],
    stopTimeout: Duration.seconds(30),
    healthCheck: containerHealthCheck({ startPeriod: Duration.seconds(30) }),
    environment: {
      ...p.environment,
      APP_URL: p.appUrl,
      PORT: String(WEB_PORT),
      // the runtime sets HOSTNAME to the task's name; Next must listen on every address
      HOSTNAME: '0.0.0.0',
      OIDC_ISSUER: p.oidcIssuer,
      OIDC_CLIENT_ID: p.oidcClientId,
    },
    secrets: p.secrets,
    logging: ecs.LogDrivers.awsLogs({ logGroup: p.logGroup, streamPrefix: 'web' }),
  })
  const web = new ecsPatterns.ApplicationLoadBalancedFargateService(stack, 'Web', {
    cluster: p.cluster,
    taskDefinition: task,
    desiredCount: p.desiredCount ?? 2,
    publicLoadBalancer: true,
    protocol: elbv2.ApplicationProtocol.HTTPS,
    certificate: acm.Certificate.fromCertificateArn(stack, 'Certificate', p.certificateArn),
    redirectHTTP: true,
    sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
    taskSubnets: p.appSubnets,
    securityGroups: [p.securityGroup],
    assignPublicIp: false,
    minHealthyPercent: 100,
    maxHealthyPercent: 200,
    circuitBreaker: { rollback: true },
    healthCheckGracePeriod: Duration.seconds(60),
  })
  web.targetGroup.configureHealthCheck({
    path: READY_PATH,
    healthyHttpCodes: '200',
    interval: Duration.seconds(15),
    timeout: Duration.seconds(5),
    healthyThresholdCount: 2,
    unhealthyThresholdCount: 3,
  })
  web.targetGroup.setAttribute('deregistration_delay.timeout_seconds', '30')
  return web
}
