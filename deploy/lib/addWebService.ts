import {
  aws_certificatemanager as acm,
  Duration,
  type aws_ec2 as ec2,
  aws_ecs as ecs,
  aws_ecs_patterns as ecsPatterns,
  aws_elasticloadbalancingv2 as elbv2,
  type aws_iam as iam,
  type aws_logs as logs,
  RemovalPolicy,
  type Stack,
  aws_s3 as s3,
} from 'aws-cdk-lib'
import { acknowledgeNag } from './acknowledgeNag'
import { acknowledgeTaskDefinition } from './acknowledgeTaskDefinition'
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
    RPC_URLS: ecs.Secret
    /** seals a new webhook endpoint's signing secret */
    WEBHOOK_SECRETS_KEY: ecs.Secret
  }
  desiredCount?: number
}

/**
 * The web: the Next.js server behind a public HTTPS ALB (HTTP redirects), its target
 * ready when GET /api/ready answers 200 (database up, migrations current). The ALB
 * writes its access logs (every request: client, path, status, target) to an S3 bucket
 * of their own: SSE-S3 (the only encryption ALB log delivery supports), TLS only, no
 * public access, no ACLs, kept a year. Needs the stack's region (the log delivery
 * principal differs by region): `cdk deploy` gives it.
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

  const accessLogs = new s3.Bucket(stack, 'AlbAccessLogs', {
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    lifecycleRules: [{ expiration: Duration.days(365) }],
    removalPolicy: RemovalPolicy.RETAIN,
  })
  web.loadBalancer.logAccessLogs(accessLogs, 'web')
  acknowledgeNag(accessLogs, {
    id: 'AwsSolutions-S1',
    reason:
      'This bucket holds the ALB access logs and nothing else; logging access to the log bucket would need another bucket logging to itself. Writes come only from the ELB log delivery principal (bucket policy), reads are CloudTrail-logged management of a private bucket.',
  })
  acknowledgeNag(web.loadBalancer, {
    id: 'AwsSolutions-EC23',
    reason:
      'The ALB is the public entry point of the desk: 443 (and 80, which only redirects to 443) open to the internet is its purpose. Behind it: the WAF web ACL (addWebAcl), TLS, and the app authenticating every route but health, ready and the public reserves.',
  })
  acknowledgeTaskDefinition(task)
  return web
}
