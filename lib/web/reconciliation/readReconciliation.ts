import { sql } from 'drizzle-orm'
import type { Address, PublicClient } from 'viem'
import type { DbOrTx } from '@/db/client'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { isoSql } from '@/lib/web/admin/sql'
import type { ApiReconciliation, ApiReconciliationSigner, ApiUnreconciledEvent } from './schemas'

export type ReadReconciliationParameters = {
  /** a read-only chain client, or null when no RPC is configured */
  chain: PublicClient | null
  /** the chain reads give up after this long: the answer then carries the database's figures only */
  chainTimeoutMs?: number
  /** how many resolved events to show (newest first) */
  resolvedLimit?: number
}

type EventRow = {
  id: string
  tx_hash: string
  log_index: number
  event: string
  order_id: string | null
  amount_wei: string | null
  block_number: string
  reason: string
  detected_at: string
  resolved_at: string | null
  resolved_by: string | null
  resolution_note: string | null
}

/**
 * What the chain holds that the desk's records do not (docs/decisions/063-nonce-resync-after-restore.md): each
 * signer's next_nonce beside the chain's `pending` count (`resync_needed` while the chain is ahead: the worker's
 * nonce_resync catches up within NONCE_HEALTH_MS), the chain events no row accounts for that no admin has resolved
 * (amounts in fine ounces, at least 3 decimals, every nonzero digit of the token's 18 kept), the latest resolved ones,
 * and the block the worker's reconciliation has read to. The web
 * only reads the chain; when it does not answer, the signers' chain nonces are null (`unknown`).
 */
export async function readReconciliation(
  db: DbOrTx,
  { chain, chainTimeoutMs = 3_000, resolvedLimit = 20 }: ReadReconciliationParameters,
): Promise<ApiReconciliation> {
  const signerRows = await db.execute<{ address: string; next_nonce: string }>(
    sql`select address, next_nonce::text as next_nonce from signers order by created_at, address`,
  )
  const columns = sql`id::text as id, tx_hash, log_index, event, order_id, amount_wei::text as amount_wei,
    block_number::text as block_number, reason, ${isoSql(sql`detected_at`)} as detected_at,
    ${isoSql(sql`resolved_at`)} as resolved_at, resolved_by, resolution_note`
  const [open, resolved, cursor] = await Promise.all([
    db.execute<EventRow>(
      sql`select ${columns} from unreconciled_events where resolved_at is null order by block_number, log_index`,
    ),
    db.execute<EventRow>(
      sql`select ${columns} from unreconciled_events where resolved_at is not null order by resolved_at desc, id desc limit ${resolvedLimit}`,
    ),
    db.execute<{ block_number: string }>(
      sql`select block_number::text as block_number from chain_cursors where name = 'reconciliation'`,
    ),
  ])

  let counts: Map<string, number> | null = null
  let error: string | null = chain ? null : 'No RPC endpoint is configured.'
  if (chain) {
    try {
      counts = await withTimeout(
        Promise.all(
          signerRows.map(
            async (s) =>
              [
                s.address,
                await chain.getTransactionCount({ address: s.address as Address, blockTag: 'pending' }),
              ] as const,
          ),
        ).then((pairs) => new Map(pairs)),
        chainTimeoutMs,
      )
    } catch (e) {
      error = `The chain RPC could not be read (${e instanceof Error ? e.name : 'Error'}).`
    }
  }

  const signers: ApiReconciliationSigner[] = signerRows.map((s) => {
    const dbNonce = Number(s.next_nonce)
    const chainNonce = counts?.get(s.address) ?? null
    const state =
      chainNonce === null
        ? 'unknown'
        : chainNonce > dbNonce
          ? 'resync_needed'
          : chainNonce < dbNonce
            ? 'in_flight'
            : 'in_sync'
    return { address: s.address, dbNonce, chainNonce, state }
  })
  const toApi = (r: EventRow): ApiUnreconciledEvent => ({
    id: r.id,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    event: r.event,
    ...(r.order_id ? { orderId: r.order_id } : {}),
    // a mint outside mintdesk need not be whole milli-ounces: every digit of the 18 is kept
    amount: r.amount_wei === null ? null : formatDecimal(BigInt(r.amount_wei), { decimals: 18, minFraction: 3 }),
    blockNumber: Number(r.block_number),
    reason: r.reason,
    detectedAt: r.detected_at,
  })
  return {
    signers,
    unreconciled: open.map(toApi),
    resolved: resolved.map((r) => ({
      ...toApi(r),
      resolvedAt: r.resolved_at ?? '',
      resolvedBy: r.resolved_by ?? '',
      note: r.resolution_note ?? '',
    })),
    cursorBlock: cursor[0] ? Number(cursor[0].block_number) : null,
    chain: { available: counts !== null, error },
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}
