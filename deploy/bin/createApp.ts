import { App, type AppProps, aws_ec2 as ec2 } from 'aws-cdk-lib'
import { ConfigError } from '../../lib/errors/config'
import { MintdeskStack, type MintdeskStackProps } from '../lib/MintdeskStack'

/** The context keys the app reads (`-c key=value`, or deploy/cdk.json), each a prop of MintdeskStack. */
export const CONTEXT_KEYS = [
  'certificateArn',
  'webImageDigest',
  'workerImageDigest',
  'stackName',
  'signerKeys',
  'queueTransport',
  'alarmEmail',
  'natGateways',
  'mailFromDomain',
  'webRepositoryName',
  'workerRepositoryName',
  'oidcClientSecretName',
  'rpcUrlSecretName',
  'smtpUrlSecretName',
  'maxFeePerGasWei',
  'maxPriorityFeeWei',
  'dbInstanceType',
  'dbMultiAz',
  'webDesiredCount',
  'workerConcurrency',
  'oldestQueuedAgeAlarmSeconds',
] as const

export type CreateAppParameters = {
  /** context, as `-c` gives it (the CLI passes it in CDK_CONTEXT_JSON, which App reads itself) */
  context?: Record<string, unknown>
  /** where the cloud assembly goes (CDK_OUTDIR when the CLI runs the app) */
  outdir?: string
  /** the stack's account and region; the CLI's CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION by default (region required) */
  env?: MintdeskStackProps['env']
}

export type CreateAppReturnType = { app: App; stack: MintdeskStack }

/**
 * The CDK app of one mintdesk environment, its stack's props read from the context
 * (CONTEXT_KEYS; docs/deploy.md). certificateArn, both image digests and the fee ceiling
 * maxFeePerGasWei are required; a
 * value of the wrong shape throws a ConfigError naming its key, never a silent default.
 *
 * @example
 * const { app } = createApp({ context: { certificateArn, webImageDigest, workerImageDigest, queueTransport: 'sqs' } })
 * app.synth()
 */
export function createApp(p: CreateAppParameters = {}): CreateAppReturnType {
  const appProps: AppProps = { context: p.context, ...(p.outdir ? { outdir: p.outdir } : {}) }
  const app = new App(appProps)
  const raw = (key: (typeof CONTEXT_KEYS)[number]): unknown => {
    const v: unknown = app.node.tryGetContext(key)
    return v === '' || v === null ? undefined : v
  }
  const str = (key: (typeof CONTEXT_KEYS)[number]): string | undefined => {
    const v = raw(key)
    if (v === undefined) return undefined
    if (typeof v !== 'string') throw new ConfigError([key], `context ${key} must be a string, got ${JSON.stringify(v)}`)
    return v
  }
  const int = (key: (typeof CONTEXT_KEYS)[number], min: number): number | undefined => {
    const v = raw(key)
    if (v === undefined) return undefined
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN
    if (!Number.isSafeInteger(n) || n < min)
      throw new ConfigError([key], `context ${key} must be an integer >= ${min}, got ${JSON.stringify(v)}`)
    return n
  }
  const bool = (key: (typeof CONTEXT_KEYS)[number]): boolean | undefined => {
    const v = raw(key)
    if (v === undefined) return undefined
    if (v === true || v === 'true') return true
    if (v === false || v === 'false') return false
    throw new ConfigError([key], `context ${key} must be true or false, got ${JSON.stringify(v)}`)
  }
  const wei = (key: 'maxFeePerGasWei' | 'maxPriorityFeeWei'): string | undefined => {
    const v = str(key)
    if (v !== undefined && !/^\d+$/.test(v))
      throw new ConfigError([key], `context ${key} must be wei as digits, got ${v}`)
    return v
  }

  const certificateArn = str('certificateArn')
  if (!certificateArn) {
    throw new ConfigError(
      ['certificateArn'],
      'context certificateArn is required: -c certificateArn=arn:aws:acm:REGION:ACCOUNT:certificate/ID (docs/deploy.md)',
    )
  }
  const maxFeePerGasWei = wei('maxFeePerGasWei')
  if (!maxFeePerGasWei) {
    throw new ConfigError(
      ['maxFeePerGasWei'],
      'context maxFeePerGasWei is required: -c maxFeePerGasWei=200000000000 (the fee ceiling, wei per gas; a production worker refuses to start without it, docs/deploy.md)',
    )
  }
  const queueTransport = str('queueTransport')
  if (queueTransport !== undefined && queueTransport !== 'postgres' && queueTransport !== 'sqs') {
    throw new ConfigError(['queueTransport'], `context queueTransport must be postgres or sqs, got ${queueTransport}`)
  }
  const dbInstanceType = str('dbInstanceType')
  const env = p.env ?? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION }
  if (!env.region) {
    // the ALB's access logs need the region's log delivery principal (addWebService)
    throw new ConfigError(
      ['CDK_DEFAULT_REGION'],
      'the stack needs its region: run it through the CDK CLI (which sets CDK_DEFAULT_REGION from your profile or AWS_REGION), or set CDK_DEFAULT_REGION',
    )
  }

  const stack = new MintdeskStack(app, str('stackName') ?? 'Mintdesk', {
    env,
    description: 'mintdesk: web + worker on ECS Fargate, RDS Postgres, KMS signing keys',
    certificateArn,
    // checked by the stack (deploy/lib/imageDigest.ts): a digest, never a tag
    imageDigests: { web: str('webImageDigest') ?? '', worker: str('workerImageDigest') ?? '' },
    signerKeyNames: str('signerKeys')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    queueTransport,
    alarmEmail: str('alarmEmail'),
    natGateways: int('natGateways', 1),
    mailFromDomain: str('mailFromDomain'),
    webRepositoryName: str('webRepositoryName'),
    workerRepositoryName: str('workerRepositoryName'),
    oidcClientSecretName: str('oidcClientSecretName'),
    rpcUrlSecretName: str('rpcUrlSecretName'),
    smtpUrlSecretName: str('smtpUrlSecretName'),
    maxFeePerGasWei,
    maxPriorityFeeWei: wei('maxPriorityFeeWei'),
    dbInstanceType: dbInstanceType ? new ec2.InstanceType(dbInstanceType) : undefined,
    dbMultiAz: bool('dbMultiAz'),
    webDesiredCount: int('webDesiredCount', 1),
    workerConcurrency: int('workerConcurrency', 1),
    oldestQueuedAgeAlarmSeconds: int('oldestQueuedAgeAlarmSeconds', 60),
  })
  return { app, stack }
}
