import type { z } from 'zod'
import type { JobState, LiveJobState } from '@/lib/jobs/jobStates'
import type { ApiMintBar } from '@/lib/web/mint/apiTypes'
import type { ApiReserveCheck } from '@/lib/web/reserves/apiTypes'
import type { ApiSigningState } from '@/lib/web/signingSwitch/readSigningState'
import type { jobListSchema, jobSchema, orderSummarySchema } from './responseSchemas'

/**
 * The JSON shapes of the admin API (docs/api.md "Admin"), as sent on the wire: ids and
 * wei amounts are strings, times ISO 8601 strings. The pages convert them to app data
 * at one boundary (components/jobs/jobsApi.ts, components/admin/adminApi.ts). The job list's types are inferred
 * from its zod schemas (./responseSchemas.ts, which the OpenAPI document describes the routes with).
 */

export type ApiOrderSummary = z.infer<typeof orderSummarySchema>

/** One job in the list. */
export type ApiJob = z.infer<typeof jobSchema>

export type ApiJobList = z.infer<typeof jobListSchema>

export type ApiJobError = { message: string; stack: string | null }

export type ApiTimelineEvent = {
  id: string
  at: string
  event: string
  jobId: string | null
  task: string
  attempt: number | null
  detail: string | null
  error: ApiJobError | null
  actor: string | null
  durationMs: number | null
  data: unknown
}

export type ApiJobOrder = {
  orderId: string
  status: string
  to: string
  amount: string
  requestedBy: string | null
  createdAt: string
  updatedAt: string
  submittedAt: string | null
  confirmedAt: string | null
  failureReason: string | null
  signer: string | null
  nonce: number | null
  txHash: string | null
  blockNumber: number | null
  vaultProof: { vault: string; receiptRef: string; documentSha256: string; bars: ApiMintBar[] }
}

export type ApiChainTx = {
  hash: string
  kind: string
  signer: string
  nonce: number
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  gasLimit: string
  createdAt: string
  broadcastAt: string | null
  minedBlock: number | null
}

export type ApiNonce = { signer: string; nonce: number; use: string; state: string }

export type ApiRelatedJob = { id: string; task: string; state: JobState }

export type ApiJobDetail = {
  job: ApiJob & { payload: unknown; key: string | null; priority: number | null; live: boolean }
  /** every error of the job, oldest first, each with its stack */
  errors: (ApiJobError & { at: string; attempt: number | null })[]
  /** the job's events, or its order's (all of the order's jobs) when it has one; oldest first */
  timeline: ApiTimelineEvent[]
  order: ApiJobOrder | null
  transactions: ApiChainTx[]
  nonces: ApiNonce[]
  relatedJobs: ApiRelatedJob[]
}

export type ApiRetrySkipReason = 'not_found' | 'running' | 'not_retryable'

export type ApiRetriedJob = {
  jobId: string
  task: string
  orderId: string | null
  /** the order's status after the retry (a failed order goes back to pending or submitted) */
  orderStatus: string | null
}

export type ApiRetryResult = {
  retried: ApiRetriedJob[]
  skipped: { jobId: string; reason: ApiRetrySkipReason; state: JobState | null }[]
  /** a filter matched more jobs than one request retries; send it again for the rest */
  truncated: boolean
}

export type ApiCancelResult = {
  jobId: string
  state: 'cancelled'
  orderId: string | null
  orderStatus: string | null
  /** every job of the order that was removed from the queue (the requested one included) */
  cancelledJobIds: string[]
  /** the nonce the order held: the worker's nonce health check releases and fills it moments later */
  releasedNonce: { signer: string; nonce: number } | null
}

export type ApiTaskMetrics = {
  task: string
  depth: Record<LiveJobState, number>
  oldestQueuedAgeSeconds: number | null
  /** attempts finished in the window */
  succeeded: number
  failed: number
  /** failed / (succeeded + failed) in the window, null without attempts */
  failureRate: number | null
  p50Ms: number | null
  p95Ms: number | null
  maxMs: number | null
  /** jobs that became dead letters in the window */
  died: number
}

export type ApiThroughputBucket = { at: string; enqueued: number; succeeded: number; failed: number }

export type ApiDeadLetter = {
  id: string
  task: string
  orderId: string | null
  attempts: number
  maxAttempts: number
  lastError: string | null
  updatedAt: string
}

export type ApiMetrics = {
  generatedAt: string
  windowSeconds: number
  depth: { task: string; state: LiveJobState; count: number }[]
  totals: Record<LiveJobState, number>
  oldestQueued: { jobId: string; task: string; ageSeconds: number; runAt: string } | null
  tasks: ApiTaskMetrics[]
  deadLetters: { count: number; recent: ApiDeadLetter[] }
  throughput: { bucketSeconds: number; buckets: ApiThroughputBucket[] }
  limits: { heartbeatMs: number; staleAfterMs: number; lockTimeoutMs: number }
}

export type ApiSigner = {
  address: string
  active: boolean
  /** the next nonce Postgres will hand out (the source of truth) */
  nextNonce: number
  /** the chain's nonce at the latest block (mined transactions); null when the chain did not answer */
  chainNonce: number | null
  /** the chain's nonce counting its mempool (`pending` block tag); null when the chain did not answer */
  pending: number | null
  /** gas balance in wei; null when the chain did not answer */
  balanceWei: string | null
  /** nonces reserved or signed in Postgres and not yet mined */
  inFlight: number
  lowBalance: boolean | null
  /**
   * the nonces in flight, lowest first (at most 50), each with what holds it and its newest transaction: the
   * operator's actions' targets
   */
  pendingNonces: ApiPendingNonce[]
}

/** One nonce reserved or signed and not mined (docs/decisions/064-operator-nonce-actions.md). */
export type ApiPendingNonce = {
  nonce: number
  state: string
  use: string
  operation: string | null
  operationId: string | null
  operationStatus: string | null
  /** the newest transaction at the nonce (the highest fee), null while only reserved; fees in wei */
  hash: string | null
  maxFeePerGas: string | null
  maxPriorityFeePerGas: string | null
}

/**
 * One chain endpoint of the web's client (RPC_URLS in rank order) as a probe just found it: its
 * URL in dev mode only (a provider's URL carries its key), otherwise its label, "rpc N" for the
 * Nth of RPC_URLS.
 */
export type ApiRpcEndpoint = {
  label: string
  /** dev mode only */
  url?: string
  /** answered, and its head at most RPC_MAX_LAG_BLOCKS behind the best */
  healthy: boolean
  /** its block number; null when it did not answer */
  head: number | null
  latencyMs: number | null
  /** why it is not healthy */
  lastError?: string
}

export type ApiWorker = { id: string; host: string; pid: number; startedAt: string; lastSeenAt: string; alive: boolean }

export type ApiSystem = {
  chainId: number | null
  tokenAddress: string | null
  confirmations: number
  signers: ApiSigner[]
  workers: ApiWorker[]
  /** dev mode only */
  rpcUrl?: string
  /** each chain endpoint's health, head and latency, in rank order; empty when no RPC is configured */
  rpcEndpoints: ApiRpcEndpoint[]
  chain: { available: boolean; blockNumber: number | null; error: string | null }
  lowBalanceWei: string
  staleAfterMs: number
  /** open orders held back by the fee ceiling (MAX_FEE_PER_GAS / MAX_PRIORITY_FEE): should be 0 */
  feeCappedOrders: number
  /** chain events no row of the desk accounts for, not resolved (GET /api/admin/reconciliation): should be 0 */
  unreconciledEvents: number
  /**
   * the latest reserve reconciliation (the worker's reserve_check), null before the first: its shortfall should be 0
   */
  reserveCheck: ApiReserveCheck | null
  /** the stop switch (docs/decisions/052-stop-switch.md): while stopped no worker signs a new transaction */
  signing: ApiSigningState
}
