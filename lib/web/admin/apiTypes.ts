import type { z } from 'zod'
import type {
  cancelResultSchema,
  chainTxSchema,
  deadLetterSchema,
  jobDetailSchema,
  jobErrorSchema,
  jobListSchema,
  jobOrderSchema,
  jobSchema,
  metricsSchema,
  nonceSchema,
  orderSummarySchema,
  pendingNonceSchema,
  relatedJobSchema,
  retriedJobSchema,
  retryResultSchema,
  retrySkipReasonSchema,
  rpcEndpointSchema,
  signerSchema,
  systemSchema,
  systemStatusSchema,
  taskMetricsSchema,
  throughputBucketSchema,
  timelineEventSchema,
  workerSchema,
} from './responseSchemas'

/**
 * The JSON shapes of the admin API (docs/api.md "Admin"), as sent on the wire: ids and
 * wei amounts are strings, times ISO 8601 strings. The pages convert them to app data
 * at one boundary (components/jobs/jobsApi.ts, components/admin/adminApi.ts). The types are inferred
 * from their zod schemas (./responseSchemas.ts, which the OpenAPI document describes the routes with).
 */

export type ApiOrderSummary = z.infer<typeof orderSummarySchema>

/** One job in the list. */
export type ApiJob = z.infer<typeof jobSchema>

export type ApiJobList = z.infer<typeof jobListSchema>

export type ApiJobError = z.infer<typeof jobErrorSchema>

export type ApiTimelineEvent = z.infer<typeof timelineEventSchema>

export type ApiJobOrder = z.infer<typeof jobOrderSchema>

export type ApiChainTx = z.infer<typeof chainTxSchema>

export type ApiNonce = z.infer<typeof nonceSchema>

export type ApiRelatedJob = z.infer<typeof relatedJobSchema>

/** GET /api/admin/jobs/{jobId} */
export type ApiJobDetail = z.infer<typeof jobDetailSchema>

export type ApiRetrySkipReason = z.infer<typeof retrySkipReasonSchema>

export type ApiRetriedJob = z.infer<typeof retriedJobSchema>

/** POST /api/admin/jobs/retry */
export type ApiRetryResult = z.infer<typeof retryResultSchema>

/** POST /api/admin/jobs/{jobId}/cancel */
export type ApiCancelResult = z.infer<typeof cancelResultSchema>

export type ApiTaskMetrics = z.infer<typeof taskMetricsSchema>

export type ApiThroughputBucket = z.infer<typeof throughputBucketSchema>

export type ApiDeadLetter = z.infer<typeof deadLetterSchema>

/** GET /api/admin/metrics */
export type ApiMetrics = z.infer<typeof metricsSchema>

export type ApiSigner = z.infer<typeof signerSchema>

/** One nonce reserved or signed and not mined (docs/decisions/064-operator-nonce-actions.md). */
export type ApiPendingNonce = z.infer<typeof pendingNonceSchema>

/** One chain endpoint of the web's client (RPC_URLS in rank order) as a probe just found it. */
export type ApiRpcEndpoint = z.infer<typeof rpcEndpointSchema>

export type ApiWorker = z.infer<typeof workerSchema>

/** The system as readSystemStatus reads it; GET /api/admin/system adds its transport (ApiSystemAnswer). */
export type ApiSystem = z.infer<typeof systemStatusSchema>

/** GET /api/admin/system */
export type ApiSystemAnswer = z.infer<typeof systemSchema>
