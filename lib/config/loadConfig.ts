import { z } from 'zod'
import { ConfigError } from '@/lib/errors/config'
import { ozToWei } from '@/lib/money/ozToWei'
import { type NotificationSettings, notificationSettings } from '@/lib/notifications/notificationSettings'
import { checkDatabaseRole } from './checkDatabaseRole'
import { databaseHostOf, isLocalDatabase, isLoopback } from './localHosts'

/**
 * All configuration, parsed once from the environment with zod. Each embedded default
 * of the local stack is switched off by setting its variable (scripts/ writes them to
 * .data/stack.env). In production mode (NODE_ENV=production without MINTDESK_DEV=1) a
 * missing secret, a dev default left in place or a secret shorter than MIN_SECRET_LENGTH is
 * a startup error naming the variable; dev mode itself (MINTDESK_DEV=1) is refused with
 * NODE_ENV=production unless the database is on this machine (issue 13).
 */

export const DEV_AUTH_SECRET = 'mintdesk-dev-only-auth-secret-do-not-use-in-production'
export const DEV_METRICS_TOKEN = 'mintdesk-dev-metrics-token'
export const DEV_KMS_ACCESS_KEY = 'mintdesk-local'
/** production secrets shorter than this are refused: guessable, or a placeholder left in place */
export const MIN_SECRET_LENGTH = 32

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
)

const optionalUrl = z.string().url().optional()
const intFrom = (def: number) => z.coerce.number().int().nonnegative().default(def)

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  MINTDESK_DEV: z.string().optional(),
  /**
   * TEST ONLY escape hatch: lets production mode use a KMS_ENDPOINT on loopback (the
   * local KMS endpoint), so tests/release/standalone.int.test.ts can run the release
   * build with production settings. Lifts that one check and nothing else; the deploy
   * (deploy/lib/MintdeskStack.ts) never sets it, and its test asserts so.
   */
  MINTDESK_ALLOW_LOOPBACK_KMS: z.string().optional(),
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required'),
  DATABASE_POOL_MAX: intFrom(10),
  RPC_URL: optionalUrl,
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  TOKEN_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'TOKEN_ADDRESS must be a 20-byte hex address')
    .optional(),
  /** comma-separated KMS key ids; KMS_KEY_ID (one key) is accepted too */
  KMS_KEY_IDS: csv.optional(),
  KMS_KEY_ID: z.string().optional(),
  KMS_ENDPOINT: optionalUrl,
  AWS_REGION: z.string().default('us-east-1'),
  CONFIRMATIONS: z.coerce.number().int().min(1).default(1),
  AUTH_SECRET: z.string().optional(),
  APP_URL: optionalUrl,
  PORT: z.coerce.number().int().positive().default(3000),
  METRICS_TOKEN: z.string().optional(),
  /** the trace viewer's URL of one trace, with `{traceId}` (e.g. Grafana Explore on Tempo): the admin job page links a job's trace there (issue 17) */
  TRACE_URL: z
    .string()
    .url()
    .refine((u) => u.includes('{traceId}'), 'TRACE_URL must contain {traceId}')
    .optional(),
  /** a session signed in longer ago than this is refused, however busy (the absolute lifetime; issue 13) */
  SESSION_MAX_AGE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 7)
    .default(12),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  DEV_STAFF_PASSWORD: z.string().optional(),
  DEV_ADMIN_PASSWORD: z.string().optional(),
  DEV_APPROVER_PASSWORD: z.string().optional(),
  /**
   * Four eyes (issue 13): an order of this many fine ounces or more waits for a second
   * person's approval before it gets its mint_send job; the worker refuses to sign such an
   * order without one. Fine oz, at most 3 decimals; '0' (the default): every order.
   */
  APPROVAL_THRESHOLD_OZ: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,3})?$/, 'APPROVAL_THRESHOLD_OZ is fine troy ounces, e.g. 0 or 5000.000')
    .default('0'),
  // job slots of a worker process: one per busy signer's confirmer (decision 022), the rest for send batches and notifications
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  WORKER_HEARTBEAT_MS: intFrom(2_000),
  WORKER_STALE_AFTER_MS: intFrom(30_000),
  MAX_ATTEMPTS: z.coerce.number().int().min(1).max(25).default(5),
  /** a broadcast transaction not mined after this long is replaced with higher fees */
  STUCK_AFTER_MS: intFrom(60_000),
  CONFIRM_POLL_MS: intFrom(500),
  /** how long one run of a signer's mint_confirmer keeps making passes (each as soon as a new block is seen) before it hands over */
  CONFIRMER_RUN_MS: intFrom(10_000),
  /** how often an idle worker slot looks for scheduled jobs (graphile-worker pollInterval) */
  WORKER_POLL_MS: z.coerce.number().int().min(50).default(1_000),
  /** period of the nonce health check (one instance across all workers) */
  NONCE_HEALTH_MS: z.coerce.number().int().min(100).default(5_000),
  /** period of the reserve reconciliation (reserve_check: on-chain supply vs the bars backing it; one instance across all workers) */
  RESERVE_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
  /** a signer whose lowest outstanding nonce is not mined for this long is re-sent in nonce order */
  NONCE_STALL_AFTER_MS: intFrom(30_000),
  /** SIGTERM: in-flight jobs get this long to finish (ECS gives 30 s before SIGKILL) */
  WORKER_SHUTDOWN_GRACE_MS: intFrom(25_000),
  /** crash-test hooks (e.g. after_sign,after_broadcast): the worker SIGKILLs itself there; ignored in production */
  MINTDESK_FAILPOINTS: csv.optional(),
  /** viem polling interval; ~100 ms against anvil, seconds against a real chain */
  RPC_POLLING_MS: intFrom(1_000),
  LOW_BALANCE_WEI: z.string().regex(/^\d+$/).default('100000000000000000'),
  /**
   * The fee ceiling (wei per gas, decimal strings): the worker never signs a mint or a
   * replacement with a max fee or a priority fee above these. While the chain needs more
   * (base fee + tip over MAX_FEE_PER_GAS) it waits, with a 'fee_capped' event and the
   * mintdesk_fee_capped_orders gauge, instead of paying. Unset: no ceiling.
   */
  MAX_FEE_PER_GAS: z
    .string()
    .regex(/^\d{1,30}$/, 'MAX_FEE_PER_GAS is wei per gas, a decimal integer')
    .optional(),
  MAX_PRIORITY_FEE: z
    .string()
    .regex(/^\d{1,30}$/, 'MAX_PRIORITY_FEE is wei per gas, a decimal integer')
    .optional(),
  /** how long a mint held back by the fee ceiling waits before it looks at the fees again */
  FEE_CAPPED_RETRY_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * The worker's KMS budget (issue 18), Sign calls per second in ONE process: across all its
   * keys (KMS_SIGN_RATE) and per key (KMS_SIGN_RATE_PER_KEY); 0 = no limit. Keep workers x
   * KMS_SIGN_RATE below the account's quota for ECC Sign, which other services share.
   */
  KMS_SIGN_RATE: intFrom(100),
  KMS_SIGN_RATE_PER_KEY: intFrom(50),
  /** how long one signature keeps retrying KMS throttles before the order waits and tries again later */
  KMS_THROTTLE_BUDGET_MS: z.coerce.number().int().min(0).default(8_000),
  /** mint_send: how many queued orders one send batch takes (consecutive nonces of one signer, signed in parallel) */
  MINT_SEND_BATCH: z.coerce.number().int().min(1).max(500).default(50),
  /** a signer never has more than this many transactions sent and not yet mined: beyond it, sends wait */
  MAX_IN_FLIGHT_PER_SIGNER: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** KMS Sign calls one send batch makes at once */
  SIGN_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** how long the send queue waits when every signer is at MAX_IN_FLIGHT_PER_SIGNER */
  IN_FLIGHT_RETRY_MS: z.coerce.number().int().min(50).default(500),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * What carries mint_send (issue 15, decision 021): graphile-worker in Postgres (default), or
   * SQS: the order's transaction writes an outbox row, the worker relays it to SQS_QUEUE_URL
   * and consumes it; the queue's redrive policy (5 receives) moves a failing one to SQS_DLQ_URL.
   */
  QUEUE_TRANSPORT: z.enum(['postgres', 'sqs']).default('postgres'),
  SQS_QUEUE_URL: optionalUrl,
  SQS_DLQ_URL: optionalUrl,
  /** the local stack's embedded SQS endpoint; unset in production (the SDK's regional endpoint) */
  SQS_ENDPOINT: optionalUrl,
  /** seconds a received message stays hidden; the worker's visibility heartbeat extends it while it works */
  SQS_VISIBILITY_TIMEOUT_S: z.coerce.number().int().min(1).max(43_200).default(60),
  /** long polling: seconds one ReceiveMessage waits for a message (1 to 20) */
  SQS_WAIT_TIME_S: z.coerce.number().int().min(0).max(20).default(20),
  /** messages one worker works at once */
  SQS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** how often the relay looks for unsent outbox rows (it is also woken after each send) */
  SQS_RELAY_MS: z.coerce.number().int().min(20).default(500),
  /** how often the worker lists the dead-letter queue into Postgres for the admin page and moves back retried ones */
  SQS_DLQ_SCAN_MS: z.coerce.number().int().min(100).default(5_000),
})

export type Env = z.infer<typeof envSchema>

export type Config = {
  production: boolean
  databaseUrl: string
  databasePoolMax: number
  rpcUrl: string | undefined
  chainId: number | undefined
  tokenAddress: `0x${string}` | undefined
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
  oidc: { issuer: string; clientId: string; clientSecret: string } | undefined
  devPasswords: { staff: string; approver: string; admin: string } | undefined
  /** APPROVAL_THRESHOLD_OZ in wei: orders at or above it need a second person (0n: every order) */
  approvalThresholdWei: bigint
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
    shutdownGraceMs: number
    /** named crash points for tests; always empty in production */
    failpoints: string[]
    /** MAX_FEE_PER_GAS / MAX_PRIORITY_FEE in wei; undefined: no ceiling */
    feeCeiling: { maxFeePerGas: bigint | undefined; maxPriorityFeePerGas: bigint | undefined }
    feeCappedRetryMs: number
    /** KMS_SIGN_RATE, KMS_SIGN_RATE_PER_KEY (0: no limit), KMS_THROTTLE_BUDGET_MS */
    kmsSign: { ratePerProcess: number; ratePerKey: number; throttleBudgetMs: number }
    /** MINT_SEND_BATCH, MAX_IN_FLIGHT_PER_SIGNER, SIGN_CONCURRENCY, IN_FLIGHT_RETRY_MS (decision 014) */
    sendBatch: number
    maxInFlightPerSigner: number
    signConcurrency: number
    inFlightRetryMs: number
  }
  rpcPollingMs: number
  lowBalanceWei: bigint
  /** webhooks and email (issue 16): SMTP_URL, MAIL_FROM, WEBHOOK_SECRETS_KEY, NOTIFY_* */
  notifications: NotificationSettings
  logLevel: Env['LOG_LEVEL']
  /** QUEUE_TRANSPORT and the SQS settings (decision 021); sqs is undefined with the postgres transport */
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
    }
    if (role === 'worker') {
      if (!e.RPC_URL) missing.push('RPC_URL')
      if (!e.TOKEN_ADDRESS) missing.push('TOKEN_ADDRESS')
      if (kmsKeyIds.length === 0) missing.push('KMS_KEY_IDS')
    }
    if (production) {
      if (e.AUTH_SECRET === DEV_AUTH_SECRET) devDefaults.push('AUTH_SECRET')
      if (e.METRICS_TOKEN === DEV_METRICS_TOKEN) devDefaults.push('METRICS_TOKEN')
      if (e.KMS_ENDPOINT && isLoopback(e.KMS_ENDPOINT) && e.MINTDESK_ALLOW_LOOPBACK_KMS !== '1')
        devDefaults.push('KMS_ENDPOINT')
      if (env.AWS_ACCESS_KEY_ID === DEV_KMS_ACCESS_KEY) devDefaults.push('AWS_ACCESS_KEY_ID')
      if (e.DEV_STAFF_PASSWORD !== undefined) devDefaults.push('DEV_STAFF_PASSWORD')
      if (e.DEV_ADMIN_PASSWORD !== undefined) devDefaults.push('DEV_ADMIN_PASSWORD')
      if (e.DEV_APPROVER_PASSWORD !== undefined) devDefaults.push('DEV_APPROVER_PASSWORD')
    }
  }
  // the web only writes the outbox: the queue URLs are the worker's (it alone talks to SQS)
  if (e.QUEUE_TRANSPORT === 'sqs' && role === 'worker') {
    if (!e.SQS_QUEUE_URL) missing.push('SQS_QUEUE_URL')
    if (!e.SQS_DLQ_URL) missing.push('SQS_DLQ_URL')
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
      ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
      : undefined

  return {
    production,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    rpcUrl: e.RPC_URL,
    chainId: e.CHAIN_ID,
    tokenAddress: e.TOKEN_ADDRESS as `0x${string}` | undefined,
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
    devPasswords: production
      ? undefined
      : {
          staff: e.DEV_STAFF_PASSWORD ?? 'staff-dev-password',
          approver: e.DEV_APPROVER_PASSWORD ?? 'approver-dev-password',
          admin: e.DEV_ADMIN_PASSWORD ?? 'admin-dev-password',
        },
    approvalThresholdWei: ozToWei(e.APPROVAL_THRESHOLD_OZ),
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
            concurrency: e.SQS_CONCURRENCY,
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
