import { z } from 'zod'
import { allowedRecipientListSchema, mintLimitsSchema } from '@/lib/controls/responseSchemas'
import { addRecipientBodySchema, recipientParamsSchema, setMintLimitsBodySchema } from '@/lib/controls/schemas'
import {
  cancelResultSchema,
  jobDetailSchema,
  jobListSchema,
  jobRetriedSchema,
  metricsSchema,
  retryResultSchema,
  systemSchema,
} from '@/lib/web/admin/responseSchemas'
import { bulkRetryBodySchema, jobIdParamsSchema, listJobsQuerySchema } from '@/lib/web/admin/schemas'
import { auditPageSchema } from '@/lib/web/audit/responseSchemas'
import { exportAuditQuerySchema, listAuditQuerySchema } from '@/lib/web/audit/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import {
  changeApprovalSchema,
  changeToSignSchema,
  confirmedControlChangeSchema,
  controlChangeAcceptedSchema,
  controlChangeListSchema,
  controlChangeSchema,
} from '@/lib/web/changes/responseSchemas'
import {
  changeIdParamsSchema,
  changeTypedDataBodySchema,
  confirmChangeBodySchema,
  listChangesQuerySchema,
  proposeOnChainChangeBodySchema,
  rejectChangeBodySchema,
} from '@/lib/web/changes/schemas'
import { sqsDeadLetterListSchema, sqsRetryResultSchema } from '@/lib/web/queue/responseSchemas'
import { sqsRetryBodySchema } from '@/lib/web/queue/schemas'
import { signingStateSchema } from '@/lib/web/signingSwitch/responseSchemas'
import { resumeSigningBodySchema, stopSigningBodySchema } from '@/lib/web/signingSwitch/schemas'
import { userListSchema, userSchema } from '@/lib/web/users/responseSchemas'
import { updateUserSchema, userIdParamsSchema } from '@/lib/web/users/updateUserSchema'
import { barListImportSchema, barListListSchema } from '@/lib/web/vault/responseSchemas'
import { importBarListQuerySchema, listBarListsQuerySchema } from '@/lib/web/vault/schemas'
import type { ApiOperation } from '../ApiOperation'

const admin = ['admin'] as const
/** a control change's 202: proposed, awaiting a second admin */
export const proposed = {
  status: 202,
  description: 'Proposed: the change awaits a second admin',
  schema: controlChangeAcceptedSchema,
}

/**
 * The admin API (docs/api.md "Admin"): jobs, the queue, controls and their four-eyes changes, users; its webhooks are
 * ./webhookOperations.ts's, the signers' nonces and the chain's reconciliation ./signerOperations.ts's.
 */
export const adminOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/admin/audit',
    summary: 'The audit log newest first, by actor, action, target and time, keyset pages; each row with its hashes',
    roles: ADMIN_READERS,
    query: listAuditQuerySchema,
    success: { status: 200, description: 'A page of audit rows', schema: auditPageSchema },
  },
  {
    method: 'get',
    path: '/api/admin/audit/export',
    summary: 'The audit rows oldest first, streamed as CSV or JSON Lines, each with its hash and the previous one',
    roles: ADMIN_READERS,
    query: exportAuditQuerySchema,
    success: {
      status: 200,
      description: 'The rows (text/csv or application/x-ndjson): docs/api.md "Audit" says how to check their chain',
      mediaType: 'text/csv',
      schema: z.string(),
      alsoMediaTypes: ['application/x-ndjson'],
    },
  },
  {
    method: 'get',
    path: '/api/admin/jobs',
    summary: 'Jobs newest first, filtered by state, task or a search, keyset pages',
    roles: ADMIN_READERS,
    query: listJobsQuerySchema,
    success: { status: 200, description: 'A page of jobs', schema: jobListSchema },
  },
  {
    method: 'get',
    path: '/api/admin/jobs/{jobId}',
    summary: 'One job: payload, attempts, errors with stacks, timeline, its order',
    roles: ADMIN_READERS,
    params: jobIdParamsSchema,
    success: { status: 200, description: 'The job', schema: jobDetailSchema },
  },
  {
    method: 'post',
    path: '/api/admin/jobs/{jobId}/retry',
    summary: 'A dead or retrying job runs again now, attempts reset (audited)',
    roles: admin,
    params: jobIdParamsSchema,
    success: { status: 200, description: 'The job retried', schema: jobRetriedSchema },
    errors: { 409: 'job_running or job_not_retryable' },
  },
  {
    method: 'post',
    path: '/api/admin/jobs/{jobId}/cancel',
    summary: 'A job stops for good, its order becomes cancelled, its nonce released (audited)',
    roles: admin,
    params: jobIdParamsSchema,
    success: { status: 200, description: 'The job cancelled', schema: cancelResultSchema },
    errors: { 409: 'job_running, job_not_cancellable or order_confirmed' },
  },
  {
    method: 'post',
    path: '/api/admin/jobs/retry',
    summary: 'Bulk retry: { jobIds } or { state: "dead", task? } (audited per job)',
    roles: admin,
    body: bulkRetryBodySchema,
    success: { status: 200, description: 'The jobs retried and those skipped', schema: retryResultSchema },
  },
  {
    method: 'get',
    path: '/api/admin/metrics',
    summary: 'Queue depth, oldest queued age, failure rate, p50/p95, dead letters, throughput',
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The figures', schema: metricsSchema },
  },
  {
    method: 'get',
    path: '/api/admin/system',
    summary: 'Chain settings, signers (nonce in Postgres and on chain, in flight, balance), workers alive',
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The system', schema: systemSchema },
  },
  {
    method: 'get',
    path: '/api/admin/dead-letters/sqs',
    summary: "The SQS dead-letter queue as the worker last listed it, and the transport's queue figures",
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The dead letters', schema: sqsDeadLetterListSchema },
  },
  {
    method: 'post',
    path: '/api/admin/dead-letters/sqs/retry',
    summary: 'Each dead letter a new message, orders reopened: { messageIds } or { all: true } (audited)',
    roles: admin,
    body: sqsRetryBodySchema,
    success: { status: 200, description: 'The messages retried', schema: sqsRetryResultSchema },
  },
  {
    method: 'get',
    path: '/api/admin/limits',
    summary: 'The per-order limit and the rolling 24 h cap (fine oz, null: unlimited), with what the cap counts now',
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The limits', schema: mintLimitsSchema },
  },
  {
    method: 'put',
    path: '/api/admin/limits',
    summary: 'Asks to set both limits; applied when another admin confirms it (audited)',
    roles: admin,
    body: setMintLimitsBodySchema,
    success: proposed,
  },
  {
    method: 'get',
    path: '/api/admin/recipients',
    summary: 'The recipient allowlist, addresses checksummed',
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The allowlist', schema: allowedRecipientListSchema },
  },
  {
    method: 'post',
    path: '/api/admin/recipients',
    summary: 'Asks to allow an address to receive mints; applied when another admin confirms it (audited)',
    roles: admin,
    body: addRecipientBodySchema,
    success: proposed,
    errors: { 409: 'conflict: the address is listed' },
  },
  {
    method: 'delete',
    path: '/api/admin/recipients/{address}',
    summary: 'Asks to take an address off the allowlist; applied when another admin confirms it (audited)',
    roles: admin,
    params: recipientParamsSchema,
    success: proposed,
  },
  {
    method: 'get',
    path: '/api/admin/changes',
    summary: 'Control changes newest first, each with who asked, what it changes and who decided it',
    roles: ADMIN_READERS,
    query: listChangesQuerySchema,
    success: { status: 200, description: 'A page of changes', schema: controlChangeListSchema },
  },
  {
    method: 'post',
    path: '/api/admin/changes',
    summary: "Proposes a change that lives on chain with the author's EIP-712 signature of its typed data (audited)",
    roles: admin,
    body: proposeOnChainChangeBodySchema,
    success: proposed,
    errors: { 409: 'conflict: the change id is used', 422: 'validation_failed or invalid_signature' },
  },
  {
    method: 'post',
    path: '/api/admin/changes/typed-data',
    summary: 'What an admin signs to propose a change that lives on chain: its id, deadline and typed data',
    roles: admin,
    body: changeTypedDataBodySchema,
    success: { status: 200, description: '{ changeId, deadline, typedData, required }', schema: changeToSignSchema },
  },
  {
    method: 'get',
    path: '/api/admin/changes/{changeId}/approval',
    summary: 'A change that lives on chain as EIP-712 typed data, the admin threshold, the signatures so far',
    roles: ADMIN_READERS,
    params: changeIdParamsSchema,
    success: { status: 200, description: '{ typedData, required, signatures }', schema: changeApprovalSchema },
  },
  {
    method: 'post',
    path: '/api/admin/changes/{changeId}/confirm',
    summary:
      'A second admin confirms a control change: it applies now, checked again; one on chain carries { signature } (audited)',
    roles: admin,
    params: changeIdParamsSchema,
    body: confirmChangeBodySchema,
    success: {
      status: 200,
      description: 'The change, applied (on chain: pending, sent by the worker)',
      schema: confirmedControlChangeSchema,
    },
    errors: {
      403: 'self_approval: its author confirms',
      409: 'not_awaiting_second_admin or already_signed',
      422: 'invalid_signature',
    },
  },
  {
    method: 'post',
    path: '/api/admin/changes/{changeId}/reject',
    summary: 'A second admin rejects a control change, with a reason: nothing of it applies (audited)',
    roles: admin,
    params: changeIdParamsSchema,
    body: rejectChangeBodySchema,
    success: { status: 200, description: 'The change, rejected', schema: controlChangeSchema },
    errors: { 403: 'self_approval: its author rejects', 409: 'not_awaiting_second_admin' },
  },
  {
    method: 'get',
    path: '/api/admin/signing',
    summary: 'The stop switch: stopped or not, why, by whom, since when',
    roles: ADMIN_READERS,
    success: {
      status: 200,
      description: '{ stopped, reason, changedBy, changedAt, auto }',
      schema: signingStateSchema,
    },
  },
  {
    method: 'post',
    path: '/api/admin/signing/stop',
    summary: 'The stop switch, at once: no worker signs a new transaction until a second admin resumes (audited)',
    roles: admin,
    body: stopSigningBodySchema,
    success: { status: 200, description: 'The switch, stopped', schema: signingStateSchema },
    errors: { 423: 'signing_stopped: it is on already' },
  },
  {
    method: 'post',
    path: '/api/admin/signing/resume',
    summary: 'Asks to turn the stop switch off: a control change another admin confirms',
    roles: admin,
    body: resumeSigningBodySchema,
    success: proposed,
    errors: { 409: 'conflict: signing is not stopped' },
  },
  {
    method: 'get',
    path: '/api/admin/users',
    summary: 'Every user with role, disabled flag and session version',
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The users', schema: userListSchema },
  },
  {
    method: 'patch',
    path: '/api/admin/users/{userId}',
    summary: '{ role }: asks to change a role (202, four eyes); { disabled }: at once, their sessions stop (audited)',
    roles: admin,
    params: userIdParamsSchema,
    body: updateUserSchema,
    success: { status: 200, description: 'The user, disabled or enabled', schema: userSchema },
    alsoSucceeds: [{ ...proposed, description: 'A role change, proposed: it awaits a second admin' }],
    errors: { 409: 'self_lockout' },
  },
  {
    method: 'get',
    path: '/api/admin/vault/bar-lists',
    summary: 'The bar lists imported, newest first, with their counts',
    roles: ADMIN_READERS,
    query: listBarListsQuerySchema,
    success: { status: 200, description: 'A page of bar lists', schema: barListListSchema },
  },
  {
    method: 'post',
    path: '/api/admin/vault/bar-lists',
    summary: "Imports a custodian's bar list (JSON, or CSV with ?vault=&asOf=), its Custodian-Signature verified",
    roles: admin,
    query: importBarListQuerySchema,
    rawBody: ['application/json', 'text/csv'],
    success: { status: 201, description: 'The list imported', schema: barListImportSchema },
    alsoSucceeds: [
      {
        status: 200,
        description:
          'With Accept: application/x-ndjson, at once: a line of JSON per step, the last carrying the status and body ' +
          'the import answers without it (docs/api.md "Bar lists")',
        schema: z.string(),
        mediaType: 'application/x-ndjson',
      },
    ],
    errors: {
      400: 'malformed_json: a JSON bar list that does not parse',
      409: 'stale_bar_list',
      422: 'validation_failed or invalid_signature',
    },
  },
]
