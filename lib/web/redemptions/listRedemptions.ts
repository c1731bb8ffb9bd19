import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import type { RedemptionStatus } from '@/db/schema'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { ValidationError } from '@/lib/web/errors/request'
import type { ApiRedemptionSummary } from './apiTypes'

export type ListRedemptionsParameters = {
  status?: RedemptionStatus
  /** the nextCursor of the page before */
  cursor?: string
  limit: number
  /** staff list their own; absent: every redemption */
  requestedBy?: string
}

/** Redemptions newest first, in keyset pages (`nextCursor`: the last row's created_at and id). */
export async function listRedemptions(
  db: Db,
  p: ListRedemptionsParameters,
): Promise<{ items: ApiRedemptionSummary[]; nextCursor: string | null }> {
  const after = p.cursor ? decodeCursor(p.cursor) : null
  const rows = await db.execute<{
    id: string
    status: RedemptionStatus
    deposit_tx_hash: string
    deposit_log_index: number
    holder_address: string
    amount_wei: string
    reference: string
    email: string
    tx_hash: string | null
    block_number: string | null
    failure_reason: string | null
    rejection_reason: string | null
    intent_deadline: Date | string
    created_at: Date | string
    created_at_text: string
    updated_at: Date | string
    burned_at: Date | string | null
    bars: number
  }>(sql`
    select r.id::text as id, r.status, r.deposit_tx_hash, r.deposit_log_index, r.holder_address,
      r.amount_wei::text as amount_wei, r.reference, u.email, r.tx_hash, r.block_number::text as block_number,
      r.failure_reason, r.rejection_reason, r.intent_deadline, r.created_at, r.created_at::text as created_at_text,
      r.updated_at, r.burned_at,
      (select count(*)::int from redemption_bars rb where rb.redemption_id = r.id) as bars
    from redemptions r join users u on u.id = r.requested_by
    where (${p.status ?? null}::text is null or r.status::text = ${p.status ?? null}::text)
      and (${p.requestedBy ?? null}::uuid is null or r.requested_by = ${p.requestedBy ?? null}::uuid)
      and (${after?.at ?? null}::timestamptz is null
        or (r.created_at, r.id) < (${after?.at ?? null}::timestamptz, ${after?.id ?? null}::uuid))
    order by r.created_at desc nulls last, r.id desc nulls last
    limit ${p.limit + 1}`)
  const page = rows.slice(0, p.limit)
  const last = page.at(-1)
  const iso = (d: Date | string) => new Date(d).toISOString()
  return {
    items: page.map((r) => ({
      redemptionId: r.id,
      status: r.status,
      depositTx: r.deposit_tx_hash,
      depositLogIndex: r.deposit_log_index,
      holder: getAddress(r.holder_address),
      amount: formatOrderAmount(r.amount_wei),
      reference: r.reference,
      requestedBy: r.email,
      bars: r.bars,
      txHash: r.tx_hash,
      blockNumber: r.block_number,
      failureReason: r.failure_reason,
      rejectionReason: r.rejection_reason,
      intentDeadline: iso(r.intent_deadline),
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      burnedAt: r.burned_at === null ? null : iso(r.burned_at),
    })),
    nextCursor:
      rows.length > p.limit && last ? Buffer.from(`${last.created_at_text}|${last.id}`).toString('base64url') : null,
  }
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|')
  if (!at || !id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(Date.parse(at)))
    throw new ValidationError([{ path: 'cursor', message: 'not a cursor of this list' }])
  return { at, id }
}
