import { ConfigError } from '@/lib/errors/config'
import { type NotificationSettings, notificationSettings } from '@/lib/notifications/notificationSettings'
import { checkDatabaseRole } from './checkDatabaseRole'
import { devPasswords, devPasswordsByUser } from './devPasswords'
import { type Env, envSchema } from './envSchema'
import { databaseHostOf, isLocalDatabase, isLoopback } from './localHosts'

/**
 * All configuration, parsed once from the environment with zod. Each embedded default
 * of the local stack is switched off by setting its variable (scripts/ writes them to
 * .data/stack.env). In production mode (NODE_ENV=production without MINTDESK_DEV=1) a
 * missing secret, a dev default left in place or a secret shorter than MIN_SECRET_LENGTH is
 * a startup error naming the variable, and so is a production worker without the fee
 * ceiling MAX_FEE_PER_GAS; dev mode itself (MINTDESK_DEV=1) is refused with
 * NODE_ENV=production unless the database is on this machine.
 */

export const DEV_AUTH_SECRET = 'mintdesk-dev-only-auth-secret-do-not-use-in-production'
export const DEV_METRICS_TOKEN = 'mintdesk-dev-metrics-token'
export const DEV_KMS_ACCESS_KEY = 'mintdesk-local'
/** production secrets shorter than this are refused: guessable, or a placeholder left in place */
export const MIN_SECRET_LENGTH = 32

export type Config = {
  production: boolean
  databaseUrl: string
  databasePoolMax: number
  /** the first of rpcUrls (the primary); undefined when none is configured */
  rpcUrl: string | undefined
  /** RPC_URLS, or RPC_URL alone; empty when neither is set */
  rpcUrls: readonly string[]
  chainId: number | undefined
  tokenAddress: `0x${string}` | undefined
  /** MINTER_ADDRESS: GoldMinter */
  minterAddress: `0x${string}` | undefined
  /** TOKEN_DEPLOY_BLOCK: where the chain followers without a cursor start reading; 0 when unset */
  tokenDeployBlock: bigint
  kmsKeyIds: string[]
  kmsEndpoint: string | undefined
  awsRegion: string
  confirmations: number
  authSecret: string
  appUrl: string | undefined
  port: number
  metricsToken: string | undefined
  /** TRACE_URL: where the admin job page links a trace id ({traceId} replaced); none: the id is shown, not linked */
  traceUrl: string | undefined
  /** SESSION_MAX_AGE_HOURS in seconds: the absolute session lifetime, counted from sign-in */
  sessionMaxAgeSeconds: number
  /**
   * mfaAcrValues: OIDC_MFA_ACR, the `acr` values that count as multi-factor (approvers and admins
   * need one, or an `amr` saying so)
   */
  oidc: { issuer: string; clientId: string; clientSecret: string; mfaAcrValues: readonly string[] } | undefined
  devPasswords: ReturnType<typeof devPasswordsByUser> | undefined
  worker: {
    concurrency: number
    heartbeatMs: number
    staleAfterMs: number
    maxAttempts: number
    stuckAfterMs: number
    confirmPollMs: number
    confirmerRunMs: number
    pollMs: number
    nonceHealthMs: number
    nonceStallAfterMs: number
    reserveCheckMs: number
    /** RETENTION_MONTHS: detail older than this many months is archived; 0: never */
    retentionMonths: number
    /** DEPOSIT_WATCH_MS: the deposit watcher's interval */
    depositWatchMs: number
    /** STOP_ON_SHORTFALL: a shortfall found by the reserve check stops all signing */
    stopOnShortfall: boolean
    shutdownGraceMs: number
    /** named crash points for tests; always empty in production */
    failpoints: string[]
    /** MAX_FEE_PER_GAS / MAX_PRIORITY_FEE in wei; undefined: no ceiling (never in a production worker) */
    feeCeiling: { maxFeePerGas: bigint | undefined; maxPriorityFeePerGas: bigint | undefined }
    feeCappedRetryMs: number
    /** KMS_SIGN_RATE, KMS_SIGN_RATE_PER_KEY (0: no limit), KMS_THROTTLE_BUDGET_MS */
    kmsSign: { ratePerProcess: number; ratePerKey: number; throttleBudgetMs: number }
    /** MINT_SEND_BATCH, MAX_IN_FLIGHT_PER_SIGNER, SIGN_CONCURRENCY, IN_FLIGHT_RETRY_MS */
    sendBatch: number
    maxInFlightPerSigner: number
    signConcurrency: number
    inFlightRetryMs: number
  }
  rpcPollingMs: number
  /** RPC_HEALTH_MS, RPC_MAX_LAG_BLOCKS: the endpoints' probes, with several */
  rpcHealthMs: number
  rpcMaxLagBlocks: number
  lowBalanceWei: bigint
  /** webhooks and email: SMTP_URL, MAIL_FROM, WEBHOOK_SECRETS_KEY, NOTIFY_* */
  notifications: NotificationSettings
  logLevel: Env['LOG_LEVEL']
  /** QUEUE_TRANSPORT and the SQS settings; sqs is undefined with the postgres transport */
  queueTransport: 'postgres' | 'sqs'
  sqs: SqsConfig | undefined
}

export type SqsConfig = {
  queueUrl: string
  dlqUrl: string
  endpoint: string | undefined
  visibilityTimeoutS: number
  waitTimeS: number
  concurrency: number
  relayMs: number
  dlqScanMs: number
}

export type ConfigRole = 'web' | 'worker' | 'tool'

export type LoadConfigParameters = {
  env?: Record<string, string | undefined>
  /** what the process needs: the web needs auth, the worker the chain and KMS */
  role?: ConfigRole
}

export function loadConfig({ env = process.env, role = 'tool' }: LoadConfigParameters = {}): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const vars = parsed.error.issues.map((i) => String(i.path[0]))
    throw new ConfigError(
      vars,
      `invalid configuration: ${parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ')}`,
    )
  }
  const e = parsed.data
  const production = e.NODE_ENV === 'production' && e.MINTDESK_DEV !== '1'
  const kmsKeyIds = e.KMS_KEY_IDS ?? (e.KMS_KEY_ID ? [e.KMS_KEY_ID] : [])

  const missing: string[] = []
  const devDefaults: string[] = []
  if (role === 'web' || role === 'worker') {
    if (role === 'web') {
      if (!e.AUTH_SECRET) (production ? missing : devDefaults).push('AUTH_SECRET')
      if (production && !e.APP_URL) missing.push('APP_URL')
      if (production && !e.METRICS_TOKEN) missing.push('METRICS_TOKEN')
      // the approval page's typed data names the minter: production never guesses it
      if (production && !e.MINTER_ADDRESS) missing.push('MINTER_ADDRESS')
    }
    if (role === 'worker') {
      if (!e.RPC_URL && !e.RPC_URLS?.length) missing.push('RPC_URL')
      if (!e.TOKEN_ADDRESS) missing.push('TOKEN_ADDRESS')
      if (!e.MINTER_ADDRESS) missing.push('MINTER_ADDRESS')
      if (kmsKeyIds.length === 0) missing.push('KMS_KEY_IDS')
      // fail closed: production never signs without a fee ceiling (worker/chain/capFees.ts)
      if (production && e.MAX_FEE_PER_GAS === undefined) missing.push('MAX_FEE_PER_GAS')
    }
    if (production) {
      if (e.AUTH_SECRET === DEV_AUTH_SECRET) devDefaults.push('AUTH_SECRET')
      if (e.METRICS_TOKEN === DEV_METRICS_TOKEN) devDefaults.push('METRICS_TOKEN')
      if (e.KMS_ENDPOINT && isLoopback(e.KMS_ENDPOINT) && e.MINTDESK_ALLOW_LOOPBACK_KMS !== '1')
        devDefaults.push('KMS_ENDPOINT')
      if (env.AWS_ACCESS_KEY_ID === DEV_KMS_ACCESS_KEY) devDefaults.push('AWS_ACCESS_KEY_ID')
      if (e.DEV_STAFF_PASSWORD !== undefined) devDefaults.push('DEV_STAFF_PASSWORD')
      if (e.DEV_ADMIN_PASSWORD !== undefined) devDefaults.push('DEV_ADMIN_PASSWORD')
      if (e.DEV_ADMIN2_PASSWORD !== undefined) devDefaults.push('DEV_ADMIN2_PASSWORD')
      if (e.DEV_APPROVER_PASSWORD !== undefined) devDefaults.push('DEV_APPROVER_PASSWORD')
      if (e.DEV_APPROVER2_PASSWORD !== undefined) devDefaults.push('DEV_APPROVER2_PASSWORD')
      if (e.DEV_AUDITOR_PASSWORD !== undefined) devDefaults.push('DEV_AUDITOR_PASSWORD')
    }
  }
  // the web only writes the outbox: the queue URLs are the worker's (it alone talks to SQS)
  if (e.QUEUE_TRANSPORT === 'sqs' && role === 'worker') {
    if (!e.SQS_QUEUE_URL) missing.push('SQS_QUEUE_URL')
    if (!e.SQS_DLQ_URL) missing.push('SQS_DLQ_URL')
  }
  if (e.RPC_URLS && new Set(e.RPC_URLS).size !== e.RPC_URLS.length) {
    throw new ConfigError(['RPC_URLS'], 'RPC_URLS names an endpoint twice')
  }
  if (missing.length > 0) {
    throw new ConfigError(missing, `missing configuration: ${missing.join(', ')} must be set`)
  }
  if (e.NODE_ENV === 'production' && e.MINTDESK_DEV === '1' && !isLocalDatabase(e.DATABASE_URL)) {
    throw new ConfigError(
      ['MINTDESK_DEV', 'DATABASE_URL'],
      `MINTDESK_DEV=1 (dev mode: seeded passwords, dev secrets) is refused with NODE_ENV=production and a database that is not on this machine (DATABASE_URL host ${databaseHostOf(e.DATABASE_URL)}); dev mode is for the local stack only`,
    )
  }
  if (production && devDefaults.length > 0) {
    throw new ConfigError(
      devDefaults,
      `production mode refuses dev defaults: ${devDefaults.join(', ')} (set real values, or MINTDESK_DEV=1 for a local run)`,
    )
  }
  const short = production && (role === 'web' || role === 'worker') ? shortSecrets(e) : []
  if (short.length > 0) {
    throw new ConfigError(
      short,
      `production mode refuses secrets shorter than ${MIN_SECRET_LENGTH} characters: ${short.join(', ')}`,
    )
  }
  if (production && (role === 'web' || role === 'worker')) {
    // each process as its own least-privilege database role, never the migration owner (invariant 7)
    const checked = checkDatabaseRole({ role, databaseUrl: e.DATABASE_URL, env })
    if (!checked.ok) throw new ConfigError(checked.variables, checked.message)
  }

  const oidc =
    e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
      ? {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET,
          mfaAcrValues: e.OIDC_MFA_ACR ?? [],
        }
      : undefined

  const rpcUrls = e.RPC_URLS?.length ? e.RPC_URLS : e.RPC_URL ? [e.RPC_URL] : []
  return {
    production,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    rpcUrl: rpcUrls[0],
    rpcUrls,
    chainId: e.CHAIN_ID,
    tokenAddress: e.TOKEN_ADDRESS as `0x${string}` | undefined,
    minterAddress: e.MINTER_ADDRESS as `0x${string}` | undefined,
    tokenDeployBlock: BigInt(e.TOKEN_DEPLOY_BLOCK ?? '0'),
    kmsKeyIds,
    kmsEndpoint: e.KMS_ENDPOINT,
    awsRegion: e.AWS_REGION,
    confirmations: e.CONFIRMATIONS,
    authSecret: e.AUTH_SECRET ?? DEV_AUTH_SECRET,
    appUrl: e.APP_URL,
    port: e.PORT,
    metricsToken: e.METRICS_TOKEN,
    traceUrl: e.TRACE_URL,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_HOURS * 60 * 60,
    oidc,
    devPasswords: production ? undefined : devPasswordsByUser(devPasswords(e)),
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      heartbeatMs: e.WORKER_HEARTBEAT_MS,
      staleAfterMs: e.WORKER_STALE_AFTER_MS,
      maxAttempts: e.MAX_ATTEMPTS,
      stuckAfterMs: e.STUCK_AFTER_MS,
      confirmPollMs: e.CONFIRM_POLL_MS,
      confirmerRunMs: e.CONFIRMER_RUN_MS,
      pollMs: e.WORKER_POLL_MS,
      nonceHealthMs: e.NONCE_HEALTH_MS,
      nonceStallAfterMs: e.NONCE_STALL_AFTER_MS,
      reserveCheckMs: e.RESERVE_CHECK_MS,
      retentionMonths: e.RETENTION_MONTHS,
      depositWatchMs: e.DEPOSIT_WATCH_MS,
      stopOnShortfall: e.STOP_ON_SHORTFALL === '1',
      shutdownGraceMs: e.WORKER_SHUTDOWN_GRACE_MS,
      failpoints: production ? [] : (e.MINTDESK_FAILPOINTS ?? []),
      feeCeiling: {
        maxFeePerGas: e.MAX_FEE_PER_GAS === undefined ? undefined : BigInt(e.MAX_FEE_PER_GAS),
        maxPriorityFeePerGas: e.MAX_PRIORITY_FEE === undefined ? undefined : BigInt(e.MAX_PRIORITY_FEE),
      },
      feeCappedRetryMs: e.FEE_CAPPED_RETRY_MS,
      kmsSign: {
        ratePerProcess: e.KMS_SIGN_RATE,
        ratePerKey: e.KMS_SIGN_RATE_PER_KEY,
        throttleBudgetMs: e.KMS_THROTTLE_BUDGET_MS,
      },
      sendBatch: e.MINT_SEND_BATCH,
      maxInFlightPerSigner: e.MAX_IN_FLIGHT_PER_SIGNER,
      signConcurrency: e.SIGN_CONCURRENCY,
      inFlightRetryMs: e.IN_FLIGHT_RETRY_MS,
    },
    rpcPollingMs: e.RPC_POLLING_MS,
    rpcHealthMs: e.RPC_HEALTH_MS,
    rpcMaxLagBlocks: e.RPC_MAX_LAG_BLOCKS,
    lowBalanceWei: BigInt(e.LOW_BALANCE_WEI),
    notifications: notificationSettings({ env, production }),
    logLevel: e.LOG_LEVEL,
    queueTransport: e.QUEUE_TRANSPORT,
    sqs:
      e.QUEUE_TRANSPORT === 'sqs' && e.SQS_QUEUE_URL && e.SQS_DLQ_URL
        ? {
            queueUrl: e.SQS_QUEUE_URL,
            dlqUrl: e.SQS_DLQ_URL,
            endpoint: e.SQS_ENDPOINT,
            visibilityTimeoutS: e.SQS_VISIBILITY_TIMEOUT_S,
            waitTimeS: e.SQS_WAIT_TIME_S,
            concurrency: e.SQS_CONCURRENCY ?? 2 * e.MINT_SEND_BATCH,
            relayMs: e.SQS_RELAY_MS,
            dlqScanMs: e.SQS_DLQ_SCAN_MS,
          }
        : undefined,
  }
}

/** Set secrets under MIN_SECRET_LENGTH (AUTH_SECRET signs sessions, METRICS_TOKEN guards /api/metrics). */
function shortSecrets(e: Env): string[] {
  const given = { AUTH_SECRET: e.AUTH_SECRET, METRICS_TOKEN: e.METRICS_TOKEN, OIDC_CLIENT_SECRET: e.OIDC_CLIENT_SECRET }
  return Object.entries(given)
    .filter(([, value]) => value && value.length < MIN_SECRET_LENGTH)
    .map(([name]) => name)
}
