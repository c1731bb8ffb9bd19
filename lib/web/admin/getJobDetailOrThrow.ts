import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { JobState } from '@/lib/jobs/jobStates'
import { liveJobsSql } from '@/lib/jobs/liveJobsSql'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { NotFoundError } from '@/lib/web/errors/resource'
import { readMintOrder } from '@/lib/web/mint/readMintOrder'
import type {
  ApiChainTx,
  ApiJobDetail,
  ApiJobError,
  ApiJobOrder,
  ApiNonce,
  ApiRelatedJob,
  ApiTimelineEvent,
} from './apiTypes'
import { listJobs } from './listJobs'
import { isoSql } from './sql'

export type GetJobDetailOrThrowParameters = { jobId: bigint }
export type GetJobDetailOrThrowReturnType = ApiJobDetail

/** The timeline shows at most this many events (a job that looped for days has more). */
export const MAX_TIMELINE_EVENTS = 1_000

/**
 * One job with everything an admin needs to understand it: its state and attempts,
 * payload, each error with its stack, the timeline (all of its order's jobs when it
 * has an order: mint_send and order_confirm tell one story), the order with its vault
 * proof, every signed transaction with nonce and fees, and the nonces bound to it.
 * Unknown job -> NotFoundError (404).
 */
export async function getJobDetailOrThrow(
  db: DbOrTx,
  { jobId }: GetJobDetailOrThrowParameters,
): Promise<GetJobDetailOrThrowReturnType> {
  const id = jobId.toString()
  const { items } = await listJobs(db, { q: id, limit: 1 })
  const job = items[0]
  if (!job || job.id !== id) throw new NotFoundError({ what: 'Job' })

  const [extra] = await db.execute<{
    payload: unknown
    key: string | null
    priority: number | null
    live: boolean
  }>(sql`
    select coalesce(l.payload::jsonb, r.payload) as payload, l.key, l.priority, l.job_id is not null as live
    from (select ${id}::bigint as job_id) x
    left join ${liveJobsSql} l on l.job_id = x.job_id
    left join job_records r on r.job_id = x.job_id`)

  const orderId = job.orderId
  const events = await db.execute<{
    id: bigint
    at: string
    event: string
    job_id: bigint | null
    task: string
    attempt: number | null
    detail: string | null
    error: string | null
    actor: string | null
    duration_ms: number | null
    data: unknown
  }>(sql`
    select id, ${isoSql(sql`at`)} as at, event, job_id, task, attempt, detail, error, actor, duration_ms, data
    from job_events
    where ${orderId ? sql`(order_id = ${orderId}::uuid or job_id = ${id}::bigint)` : sql`job_id = ${id}::bigint`}
    order by at, id
    limit ${MAX_TIMELINE_EVENTS}`)

  const timeline: ApiTimelineEvent[] = events.map((e) => ({
    id: e.id.toString(),
    at: e.at,
    event: e.event,
    jobId: e.job_id === null ? null : e.job_id.toString(),
    task: e.task,
    attempt: e.attempt,
    detail: e.detail,
    error: e.error === null ? null : splitError(e.error),
    actor: e.actor,
    durationMs: e.duration_ms,
    data: e.data ?? null,
  }))
  const errors = timeline
    .filter((e) => e.error !== null && (e.jobId === id || e.jobId === null))
    .map((e) => ({ at: e.at, attempt: e.attempt, ...(e.error as ApiJobError) }))
  // the last error graphile-worker holds, when the timeline has none (a job added outside addJob)
  if (errors.length === 0 && job.lastError)
    errors.push({ at: job.updatedAt, attempt: job.attempts, ...splitError(job.lastError) })

  return {
    job: {
      ...job,
      payload: extra?.payload ?? null,
      key: extra?.key ?? null,
      priority: extra?.priority ?? null,
      live: extra?.live ?? false,
    },
    errors,
    timeline,
    order: orderId ? await readJobOrder(db, orderId) : null,
    transactions: orderId ? await listTransactions(db, orderId) : [],
    nonces: orderId ? await listNonces(db, orderId) : [],
    relatedJobs: orderId ? await listRelatedJobs(db, orderId) : [],
  }
}

/** A stored error is its message, then (from the second line) its stack. */
function splitError(text: string): ApiJobError {
  const newline = text.indexOf('\n')
  if (newline === -1) return { message: text, stack: null }
  const stack = text.slice(newline + 1).trim()
  return { message: text.slice(0, newline).trim(), stack: stack === '' ? null : stack }
}

/** The job's order through the one reader (readMintOrder), as the admin API writes it. */
async function readJobOrder(db: DbOrTx, orderId: string): Promise<ApiJobOrder | null> {
  const o = await readMintOrder(db, { orderId })
  if (!o) return null
  return {
    orderId: o.id,
    status: o.status,
    to: o.toAddress,
    amount: formatOrderAmount(o.amountWei),
    requestedBy: o.requestedByEmail,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    submittedAt: o.submittedAt?.toISOString() ?? null,
    confirmedAt: o.confirmedAt?.toISOString() ?? null,
    failureReason: o.failureReason,
    signer: o.signerAddress,
    // counters far below 2^53, not amounts
    nonce: o.nonce === null ? null : Number(o.nonce),
    txHash: o.txHash,
    blockNumber: o.blockNumber === null ? null : Number(o.blockNumber),
    vaultProof: { vault: o.vault, receiptRef: o.receiptRef, documentSha256: o.documentSha256, bars: o.bars },
  }
}

async function listTransactions(db: DbOrTx, orderId: string): Promise<ApiChainTx[]> {
  const rows = await db.execute<{
    hash: string
    kind: string
    signer_address: string
    nonce: bigint
    max_fee_per_gas: string
    max_priority_fee_per_gas: string
    gas_limit: string
    created_at: string
    broadcast_at: string | null
    mined_block: bigint | null
  }>(sql`
    select hash, kind::text as kind, signer_address, nonce, max_fee_per_gas::text as max_fee_per_gas,
      max_priority_fee_per_gas::text as max_priority_fee_per_gas, gas_limit::text as gas_limit,
      ${isoSql(sql`created_at`)} as created_at, ${isoSql(sql`broadcast_at`)} as broadcast_at, mined_block
    from chain_txs where order_id = ${orderId}::uuid
    order by created_at, hash`)
  return rows.map((r) => ({
    hash: r.hash,
    kind: r.kind,
    signer: r.signer_address,
    nonce: Number(r.nonce),
    maxFeePerGas: r.max_fee_per_gas,
    maxPriorityFeePerGas: r.max_priority_fee_per_gas,
    gasLimit: r.gas_limit,
    createdAt: r.created_at,
    broadcastAt: r.broadcast_at,
    minedBlock: r.mined_block === null ? null : Number(r.mined_block),
  }))
}

async function listNonces(db: DbOrTx, orderId: string): Promise<ApiNonce[]> {
  const rows = await db.execute<{ signer_address: string; nonce: bigint; use: string; state: string }>(sql`
    select signer_address, nonce, use::text as use, state::text as state
    from signer_nonces where order_id = ${orderId}::uuid order by nonce`)
  return rows.map((r) => ({ signer: r.signer_address, nonce: Number(r.nonce), use: r.use, state: r.state }))
}

async function listRelatedJobs(db: DbOrTx, orderId: string): Promise<ApiRelatedJob[]> {
  const { items } = await listJobs(db, { q: orderId, limit: 50 })
  return items.map((j) => ({ id: j.id, task: j.task, state: j.state as JobState }))
}
