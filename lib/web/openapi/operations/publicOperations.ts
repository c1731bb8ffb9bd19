import { z } from 'zod'
import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { healthSchema, readySchema } from '@/lib/web/ops/responseSchemas'
import {
  attestationPackSchema,
  reserveHistorySchema,
  reserveLookupSchema,
  reservesSchema,
} from '@/lib/web/reserves/responseSchemas'
import { attestationQuerySchema, reserveHistoryQuerySchema, reserveLookupQuerySchema } from '@/lib/web/reserves/schemas'
import { devSignBodySchema, keySignatureSchema } from '@/lib/web/signing/apiTypes'
import { barListTypedDataSchema, vaultBarListSchema } from '@/lib/web/vault/responseSchemas'
import { importBarListQuerySchema, listVaultBarsQuerySchema } from '@/lib/web/vault/schemas'
import type { ApiOperation } from '../ApiOperation'
import { openApiDocumentSchema } from '../openApiDocumentSchema'

/** next-auth's catch-all `[...nextauth]`: the action, a path of one or more segments (`callback/oidc`) */
const nextAuthParamsSchema = z.object({ nextauth: z.string() })

/** the media types a bar list is sent as: JSON, or CSV with ?vault=&asOf= */
const barListMedia = ['application/json', 'text/csv'] as const

/**
 * Operations, reserves, the vault's inventory, next-auth's endpoints and the dev signer (docs/api.md "Operations",
 * "Reserves", "Vault", "Auth").
 */
export const publicOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/health',
    summary: 'Liveness: 200 while the process lives (no database, no auth)',
    roles: 'public',
    success: { status: 200, description: 'Alive', schema: healthSchema },
  },
  {
    method: 'get',
    path: '/api/ready',
    summary: 'Readiness: the database answers and its migrations are current',
    roles: 'public',
    success: { status: 200, description: 'Ready', schema: readySchema },
    errors: { 503: 'not_ready' },
  },
  {
    method: 'get',
    path: '/api/metrics',
    summary: 'Prometheus text: gauges, counters and histograms; needs Authorization: Bearer $METRICS_TOKEN',
    roles: 'public',
    success: { status: 200, description: 'The exposition', mediaType: 'text/plain' },
    errors: { 401: 'unauthenticated: no valid bearer token' },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document: the API as OpenAPI 3.1, generated from the zod schemas the routes validate with',
    roles: 'public',
    success: { status: 200, description: 'The OpenAPI document', schema: openApiDocumentSchema },
  },
  {
    method: 'get',
    path: '/api/reserves',
    summary: 'Proof of reserve: on-chain total supply beside the fine weight of the bars backing it',
    roles: 'public',
    rateLimited: true,
    success: { status: 200, description: 'The figures', schema: reservesSchema },
    errors: { 503: 'not_ready: the supply cannot be read from the chain and no reconciliation check is recorded yet' },
  },
  {
    method: 'get',
    path: '/api/reserves/history',
    summary: 'The supply beside the backing over the last days: the latest reconciliation check of each span',
    roles: 'public',
    rateLimited: true,
    query: reserveHistoryQuerySchema,
    success: { status: 200, description: 'The points, oldest first', schema: reserveHistorySchema },
  },
  {
    method: 'get',
    path: '/api/reserves/lookup',
    summary: 'The confirmed mints to an address (or in a transaction, or backed by a bar serial) and their bars',
    roles: 'public',
    rateLimited: true,
    query: reserveLookupQuerySchema,
    success: { status: 200, description: 'The mints found', schema: reserveLookupSchema },
  },
  {
    method: 'get',
    path: '/api/reserves/attestation',
    summary:
      'The attestation pack of block N: supply at the block, the bar lists in force then, every backing bar with its ' +
      'order and transaction, the totals. The bars as text/csv with ?format=csv or Accept: text/csv; X-Pack-Sha256 is ' +
      'the sha256 (hex) of the bytes sent',
    roles: 'public',
    rateLimited: true,
    query: attestationQuerySchema,
    success: {
      status: 200,
      description: 'The pack (the same bytes for the same final block)',
      schema: attestationPackSchema,
      alsoMediaTypes: ['text/csv'],
    },
    errors: { 503: 'not_ready: the chain cannot be read (state at a past block needs an archive node)' },
  },
  {
    method: 'get',
    path: '/api/vault/bars',
    summary: 'The vault inventory, bar by bar, keyset pages',
    roles: ORDER_READERS,
    query: listVaultBarsQuerySchema,
    success: { status: 200, description: 'A page of bars', schema: vaultBarListSchema },
  },
  {
    method: 'post',
    path: '/api/vault/bar-lists/typed-data',
    summary: 'The EIP-712 typed data a custodian signs for a bar list (the body of an import)',
    roles: ['admin'],
    query: importBarListQuerySchema,
    rawBody: barListMedia,
    success: { status: 200, description: 'The typed data', schema: barListTypedDataSchema },
    errors: { 400: 'malformed_json: a JSON bar list that does not parse' },
  },
  {
    method: 'post',
    path: '/api/dev/sign',
    summary: "Dev mode only: signs typed data or a text with the signed-in user's dev key (404 in production)",
    roles: ['staff', 'approver', 'admin'], // those who sign; an auditor signs nothing
    body: devSignBodySchema,
    success: { status: 200, description: 'The signature and its key', schema: keySignatureSchema },
  },
  {
    method: 'get',
    path: '/api/auth/{nextauth}',
    summary: "next-auth's endpoints: csrf, session, providers, sign-in callbacks (the path's rest names the action)",
    roles: 'public',
    params: nextAuthParamsSchema,
    success: { status: 200, description: "next-auth's answer" },
  },
  {
    method: 'post',
    path: '/api/auth/{nextauth}',
    summary: "next-auth's endpoints: sign-in with credentials, sign-out (a form post with next-auth's csrf token)",
    roles: 'public',
    params: nextAuthParamsSchema,
    success: { status: 302, description: "next-auth's redirect" },
  },
]
