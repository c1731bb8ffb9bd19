import { z } from 'zod'
import { JOB_STATES, LIVE_JOB_STATES } from '@/lib/jobs/jobStates'
import { decimalStringSchema, wholeNumberStringSchema } from '@/lib/web/http/decimalStringSchemas'
import { mintVaultProofSchema } from '@/lib/web/mint/responseSchemas'
import { reserveCheckSchema } from '@/lib/web/reserves/responseSchemas'
import { signingStateSchema } from '@/lib/web/signingSwitch/responseSchemas'

/**
 * The answers of the admin job routes (docs/api.md "Admin") as zod schemas: lib/web/admin/apiTypes.ts infers their
 * types from them, and the OpenAPI document (lib/web/openapi) describes the routes with them. Ids and wei amounts are
 * strings, times ISO 8601 strings.
 */

export const orderSummarySchema = z.object({
  orderId: z.string(),
  status: z.string(),
  to: z.string(),
  /** fine troy ounces, decimal string */
  amount: z.string(),
})

/** One job in the list. */
export const jobSchema = z
  .object({
    id: z.string(),
    task: z.string(),
    state: z.enum(JOB_STATES),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    lastError: z.string().nullable(),
    orderId: z.string().nullable(),
    /** when it runs (or ran) next; null once it left graphile-worker's table */
    runAt: z.string().nullable(),
    lockedAt: z.string().nullable(),
    lockedBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
    order: orderSummarySchema.nullable(),
  })
  .meta({ id: 'Job' })

/** GET /api/admin/jobs */
export const jobListSchema = z.object({ items: z.array(jobSchema), nextCursor: z.string().nullable() })

/** an error as the job detail shows it: the message, then its stack when the stored text had one */
export const jobErrorSchema = z.object({ message: z.string(), stack: z.string().nullable() })

/** One event of a job's (or its order's) timeline, from job_events. */
export const timelineEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  event: z.string(),
  jobId: z.string().nullable(),
  task: z.string(),
  attempt: z.number().int().nullable(),
  detail: z.string().nullable(),
  error: jobErrorSchema.nullable(),
  actor: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** the event's own JSON as the worker recorded it (each event its own fields), or null */
  data: z.unknown(),
})

/** The job's mint order as the job detail shows it. */
export const jobOrderSchema = z.object({
  orderId: z.string(),
  status: z.string(),
  to: z.string(),
  /** fine troy ounces */
  amount: decimalStringSchema,
  requestedBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  submittedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  signer: z.string().nullable(),
  nonce: z.number().int().nullable(),
  txHash: z.string().nullable(),
  blockNumber: z.number().int().nullable(),
  vaultProof: mintVaultProofSchema,
})

/** A transaction signed for the job's order, with its nonce and fees (wei). */
export const chainTxSchema = z.object({
  hash: z.string(),
  kind: z.string(),
  signer: z.string(),
  nonce: z.number().int(),
  maxFeePerGas: wholeNumberStringSchema,
  maxPriorityFeePerGas: wholeNumberStringSchema,
  gasLimit: wholeNumberStringSchema,
  createdAt: z.string(),
  broadcastAt: z.string().nullable(),
  minedBlock: z.number().int().nullable(),
})

export const nonceSchema = z.object({ signer: z.string(), nonce: z.number().int(), use: z.string(), state: z.string() })

export const relatedJobSchema = z.object({ id: z.string(), task: z.string(), state: z.enum(JOB_STATES) })

/** GET /api/admin/jobs/{jobId} */
export const jobDetailSchema = z.object({
  job: jobSchema.extend({
    /** the task's payload as it was queued (each task its own fields), or null once none is kept */
    payload: z.unknown(),
    key: z.string().nullable(),
    priority: z.number().int().nullable(),
    live: z.boolean(),
  }),
  /** every error of the job, oldest first, each with its stack */
  errors: z.array(jobErrorSchema.extend({ at: z.string(), attempt: z.number().int().nullable() })),
  /** the job's events, or its order's (all of the order's jobs) when it has one; oldest first */
  timeline: z.array(timelineEventSchema),
  order: jobOrderSchema.nullable(),
  transactions: z.array(chainTxSchema),
  nonces: z.array(nonceSchema),
  relatedJobs: z.array(relatedJobSchema),
})

export const retriedJobSchema = z.object({
  jobId: z.string(),
  task: z.string(),
  orderId: z.string().nullable(),
  /** the order's status after the retry (a failed order goes back to pending or submitted) */
  orderStatus: z.string().nullable(),
})

/** POST /api/admin/jobs/{jobId}/retry */
export const jobRetriedSchema = retriedJobSchema.extend({ state: z.literal('queued') })

export const retrySkipReasonSchema = z.enum(['not_found', 'running', 'not_retryable'])

/** POST /api/admin/jobs/retry */
export const retryResultSchema = z.object({
  retried: z.array(retriedJobSchema),
  skipped: z.array(
    z.object({ jobId: z.string(), reason: retrySkipReasonSchema, state: z.enum(JOB_STATES).nullable() }),
  ),
  /** a filter matched more jobs than one request retries; send it again for the rest */
  truncated: z.boolean(),
})

/** POST /api/admin/jobs/{jobId}/cancel */
export const cancelResultSchema = z.object({
  jobId: z.string(),
  state: z.literal('cancelled'),
  orderId: z.string().nullable(),
  orderStatus: z.string().nullable(),
  /** every job of the order that was removed from the queue (the requested one included) */
  cancelledJobIds: z.array(z.string()),
  /** the nonce the order held: the worker's nonce health check releases and fills it moments later */
  releasedNonce: z.object({ signer: z.string(), nonce: z.number().int() }).nullable(),
})

const liveJobState = z.enum(LIVE_JOB_STATES)
/** a count for each live state, every state named */
const liveStateCounts = z.record(liveJobState, z.number().int())

export const taskMetricsSchema = z.object({
  task: z.string(),
  depth: liveStateCounts,
  oldestQueuedAgeSeconds: z.number().nullable(),
  /** attempts finished in the window */
  succeeded: z.number().int(),
  failed: z.number().int(),
  /** failed / (succeeded + failed) in the window, null without attempts */
  failureRate: z.number().nullable(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
  /** jobs that became dead letters in the window */
  died: z.number().int(),
})

export const throughputBucketSchema = z.object({
  at: z.string(),
  enqueued: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
})

export const deadLetterSchema = z.object({
  id: z.string(),
  task: z.string(),
  orderId: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  updatedAt: z.string(),
})

/** GET /api/admin/metrics */
export const metricsSchema = z.object({
  generatedAt: z.string(),
  windowSeconds: z.number(),
  depth: z.array(z.object({ task: z.string(), state: liveJobState, count: z.number().int() })),
  totals: liveStateCounts,
  oldestQueued: z.object({ jobId: z.string(), task: z.string(), ageSeconds: z.number(), runAt: z.string() }).nullable(),
  tasks: z.array(taskMetricsSchema),
  deadLetters: z.object({ count: z.number().int(), recent: z.array(deadLetterSchema) }),
  throughput: z.object({ bucketSeconds: z.number(), buckets: z.array(throughputBucketSchema) }),
  limits: z.object({ heartbeatMs: z.number(), staleAfterMs: z.number(), lockTimeoutMs: z.number() }),
})

/** One nonce reserved or signed and not mined (docs/decisions/064-operator-nonce-actions.md). */
export const pendingNonceSchema = z.object({
  nonce: z.number().int(),
  state: z.string(),
  use: z.string(),
  operation: z.string().nullable(),
  operationId: z.string().nullable(),
  operationStatus: z.string().nullable(),
  /** the newest transaction at the nonce (the highest fee), null while only reserved; fees in wei */
  hash: z.string().nullable(),
  maxFeePerGas: wholeNumberStringSchema.nullable(),
  maxPriorityFeePerGas: wholeNumberStringSchema.nullable(),
})

/**
 * One chain endpoint of the web's client (RPC_URLS in rank order) as a probe just found it: its URL in dev mode only
 * (a provider's URL carries its key), otherwise its label, "rpc N" for the Nth of RPC_URLS.
 */
export const rpcEndpointSchema = z.object({
  label: z.string(),
  /** dev mode only */
  url: z.string().optional(),
  /** answered, and its head at most RPC_MAX_LAG_BLOCKS behind the best */
  healthy: z.boolean(),
  /** its block number; null when it did not answer */
  head: z.number().int().nullable(),
  latencyMs: z.number().nullable(),
  /** why it is not healthy */
  lastError: z.string().optional(),
})

export const signerSchema = z.object({
  address: z.string(),
  active: z.boolean(),
  /** the next nonce Postgres will hand out (the source of truth) */
  nextNonce: z.number().int(),
  /** the chain's nonce at the latest block (mined transactions); null when the chain did not answer */
  chainNonce: z.number().int().nullable(),
  /** the chain's nonce counting its mempool (`pending` block tag); null when the chain did not answer */
  pending: z.number().int().nullable(),
  /** gas balance in wei; null when the chain did not answer */
  balanceWei: wholeNumberStringSchema.nullable(),
  /** nonces reserved or signed in Postgres and not yet mined */
  inFlight: z.number().int(),
  lowBalance: z.boolean().nullable(),
  /**
   * the nonces in flight, lowest first (at most 50), each with what holds it and its newest transaction: the
   * operator's actions' targets
   */
  pendingNonces: z.array(pendingNonceSchema),
})

export const workerSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  alive: z.boolean(),
})

/** The system as readSystemStatus reads it (the admin page and GET /api/admin/system). */
export const systemStatusSchema = z.object({
  chainId: z.number().int().nullable(),
  tokenAddress: z.string().nullable(),
  confirmations: z.number().int(),
  signers: z.array(signerSchema),
  workers: z.array(workerSchema),
  /** dev mode only */
  rpcUrl: z.string().optional(),
  /** each chain endpoint's health, head and latency, in rank order; empty when no RPC is configured */
  rpcEndpoints: z.array(rpcEndpointSchema),
  chain: z.object({ available: z.boolean(), blockNumber: z.number().int().nullable(), error: z.string().nullable() }),
  lowBalanceWei: wholeNumberStringSchema,
  staleAfterMs: z.number(),
  /** open orders held back by the fee ceiling (MAX_FEE_PER_GAS / MAX_PRIORITY_FEE): should be 0 */
  feeCappedOrders: z.number().int(),
  /** chain events no row of the desk accounts for, not resolved (GET /api/admin/reconciliation): should be 0 */
  unreconciledEvents: z.number().int(),
  /**
   * the latest reserve reconciliation (the worker's reserve_check), null before the first: its shortfall should be 0
   */
  reserveCheck: reserveCheckSchema.nullable(),
  /** the stop switch (docs/decisions/052-stop-switch.md): while stopped no worker signs a new transaction */
  signing: signingStateSchema,
})

/** GET /api/admin/system: the system, and what carries mint_send (QUEUE_TRANSPORT) */
export const systemSchema = systemStatusSchema.extend({ transport: z.enum(['postgres', 'sqs']) })
