import { z } from 'zod'

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
)

const optionalUrl = z.string().url().optional()
const intFrom = (def: number) => z.coerce.number().int().nonnegative().default(def)

/** The environment as zod reads it: every variable of web, worker and the tools, with its default. */
/**
 * The longest SESSION_MAX_AGE_HOURS allowed: a signed-out session is remembered this long after its
 * sign-in (lib/web/auth/revokeSession.ts).
 */
export const SESSION_MAX_AGE_HOURS_LIMIT = 24 * 7

export const envSchema = z.object({
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
  /** one chain endpoint; RPC_URLS, when set, takes its place */
  RPC_URL: optionalUrl,
  /**
   * several chain endpoints, comma-separated, in rank order: the first while it is healthy, the
   * next when it is dead or its head lags (lib/chain/createChainClient.ts); sends go to each
   */
  RPC_URLS: csv.pipe(z.array(z.string().url('each of RPC_URLS must be a URL'))).optional(),
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  TOKEN_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'TOKEN_ADDRESS must be a 20-byte hex address')
    .optional(),
  /** GoldMinter, the sole holder of the token's roles: the web builds intents for it, the worker relays to it */
  MINTER_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'MINTER_ADDRESS must be a 20-byte hex address')
    .optional(),
  /**
   * the block GoldToken was deployed in (GoldMinter comes after it): the worker's chain followers (the
   * reconciliation of the chain's events, the deposit watcher) read from there when they have no cursor yet;
   * unset: block 0, which a fresh anvil can afford and a deep chain cannot
   */
  TOKEN_DEPLOY_BLOCK: z
    .string()
    .regex(/^\d{1,20}$/, 'TOKEN_DEPLOY_BLOCK is a block number, a decimal integer')
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
  /**
   * the trace viewer's URL of one trace, with `{traceId}` (e.g. Grafana
   * Explore on Tempo): the admin job page links a job's trace there
   */
  TRACE_URL: z
    .string()
    .url()
    .refine((u) => u.includes('{traceId}'), 'TRACE_URL must contain {traceId}')
    .optional(),
  /** a session signed in longer ago than this is refused, however busy (the absolute lifetime) */
  SESSION_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(SESSION_MAX_AGE_HOURS_LIMIT).default(12),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /**
   * the `acr` values that count as multi-factor at the OIDC provider (comma-separated), besides an
   * `amr` naming a second factor
   */
  OIDC_MFA_ACR: csv.optional(),
  DEV_STAFF_PASSWORD: z.string().optional(),
  DEV_ADMIN_PASSWORD: z.string().optional(),
  DEV_ADMIN2_PASSWORD: z.string().optional(),
  DEV_AUDITOR_PASSWORD: z.string().optional(),
  DEV_APPROVER_PASSWORD: z.string().optional(),
  DEV_APPROVER2_PASSWORD: z.string().optional(),
  // job slots of a worker process: one per busy signer's confirmer, the rest for send batches and notifications
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  WORKER_HEARTBEAT_MS: intFrom(2_000),
  WORKER_STALE_AFTER_MS: intFrom(30_000),
  MAX_ATTEMPTS: z.coerce.number().int().min(1).max(25).default(5),
  /** a broadcast transaction not mined after this long is replaced with higher fees */
  STUCK_AFTER_MS: intFrom(60_000),
  CONFIRM_POLL_MS: intFrom(500),
  /**
   * how long one run of a signer's signer_confirm keeps making passes (each as soon as a new
   * block is seen) before it hands over
   */
  CONFIRMER_RUN_MS: intFrom(10_000),
  /** how often an idle worker slot looks for scheduled jobs (graphile-worker pollInterval) */
  WORKER_POLL_MS: z.coerce.number().int().min(50).default(1_000),
  /** period of the nonce health check (one instance across all workers) */
  NONCE_HEALTH_MS: z.coerce.number().int().min(100).default(5_000),
  /**
   * period of the reserve reconciliation (reserve_check: on-chain
   * supply vs the bars backing it; one instance across all workers)
   */
  RESERVE_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
  /** how often the deposit watcher reads the transfers to the redemption address (one instance across all workers) */
  DEPOSIT_WATCH_MS: z.coerce.number().int().min(100).default(2_000),
  /**
   * months of detail kept in place (docs/decisions/066-a-year-of-history.md): the worker moves older housekeeping
   * job history and ended webhook deliveries to the archive tables, a bounded batch at each heartbeat; the audit log
   * and every order's timeline stay. 0 (the default): nothing moves
   */
  RETENTION_MONTHS: z.coerce.number().int().min(0).max(1200).default(0),
  /** 1: a reserve check that finds a shortfall turns the stop switch on (docs/decisions/052-stop-switch.md); off: 0 */
  STOP_ON_SHORTFALL: z.enum(['0', '1']).default('0'),
  /** a signer whose lowest outstanding nonce is not mined for this long is re-sent in nonce order */
  NONCE_STALL_AFTER_MS: intFrom(30_000),
  /** SIGTERM: in-flight jobs get this long to finish (ECS gives 30 s before SIGKILL) */
  WORKER_SHUTDOWN_GRACE_MS: intFrom(25_000),
  /** crash-test hooks (e.g. after_sign,after_broadcast): the worker SIGKILLs itself there; ignored in production */
  MINTDESK_FAILPOINTS: csv.optional(),
  /** viem polling interval; ~100 ms against anvil, seconds against a real chain */
  RPC_POLLING_MS: intFrom(1_000),
  /** with several endpoints: how often the chain client probes their health (head and latency) while in use */
  RPC_HEALTH_MS: z.coerce.number().int().min(50).default(2_000),
  /** with several endpoints: one whose head is behind the best by more than this many blocks is skipped */
  RPC_MAX_LAG_BLOCKS: intFrom(3),
  LOW_BALANCE_WEI: z.string().regex(/^\d+$/).default('100000000000000000'),
  /**
   * The fee ceiling (wei per gas, decimal strings): the worker never signs a mint or a
   * replacement with a max fee or a priority fee above these. While the chain needs more
   * (base fee + tip over MAX_FEE_PER_GAS) it waits, with a 'fee_capped' event and the
   * mintdesk_fee_capped_orders gauge, instead of paying. Unset: no ceiling, in dev and
   * tests only: a production worker refuses to start without MAX_FEE_PER_GAS.
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
   * The worker's KMS budget, Sign calls per second in ONE process: across all its
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
   * What carries mint_send (docs/decisions/021-sqs-transport.md): graphile-worker in Postgres (default), or
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
  /**
   * messages one worker holds at once: receives of up to 10, under a backlog topped up to MINT_SEND_BATCH messages
   * handed to the send batcher together; unset: twice MINT_SEND_BATCH, so one full send batch is worked while the
   * next one's messages are received (as graphile-worker's claims overlap)
   */
  SQS_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).optional(),
  /** how often the relay looks for unsent outbox rows (it is also woken after each send) */
  SQS_RELAY_MS: z.coerce.number().int().min(20).default(500),
  /** how often the worker lists the dead-letter queue into Postgres for the admin page and moves back retried ones */
  SQS_DLQ_SCAN_MS: z.coerce.number().int().min(100).default(5_000),
})

export type Env = z.infer<typeof envSchema>
