import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import type { RedemptionStatus } from '@/db/schema'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { isUuid } from '@/lib/mint/isUuid'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { listRedemptionBars } from '@/lib/redemption/listRedemptionBars'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRedemption } from './apiTypes'

export type GetRedemptionOrThrowParameters = {
  redemptionId: string
  /** staff read their own redemptions only (another's is not found); absent: every redemption */
  requestedBy?: string
}

type RedemptionRecord = {
  id: string
  status: RedemptionStatus
  deposit_tx_hash: string
  deposit_log_index: number
  holder_address: string
  amount_wei: string
  reference: string
  requested_by_email: string
  tx_hash: string | null
  block_number: string | null
  failure_reason: string | null
  rejection_reason: string | null
  intent_deadline: Date | string
  created_at: Date | string
  updated_at: Date | string
  burned_at: Date | string | null
}

/**
 * A redemption as GET /api/gold/redemptions/{id} shows it: the redemption, its bars as the inventory has them now,
 * its approvers' signatures and its timeline (its job events, the request's through the burn's confirmations).
 */
export async function getRedemptionOrThrow(db: Db, p: GetRedemptionOrThrowParameters): Promise<ApiRedemption> {
  if (!isUuid(p.redemptionId)) throw new NotFoundError({ what: 'Redemption' })
  const id = p.redemptionId.toLowerCase()
  const [row] = await db.execute<RedemptionRecord>(sql`
    select r.id::text as id, r.status, r.deposit_tx_hash, r.deposit_log_index, r.holder_address,
      r.amount_wei::text as amount_wei, r.reference, u.email as requested_by_email, r.tx_hash,
      r.block_number::text as block_number, r.failure_reason, r.rejection_reason, r.intent_deadline, r.created_at,
      r.updated_at, r.burned_at
    from redemptions r join users u on u.id = r.requested_by
    where r.id = ${id}::uuid and (${p.requestedBy ?? null}::uuid is null or r.requested_by = ${p.requestedBy ?? null}::uuid)`)
  if (!row) throw new NotFoundError({ what: 'Redemption' })
  const [bars, signatures, timeline] = await Promise.all([
    listRedemptionBars(db, { ids: [id] }),
    db.execute<{ signer_address: string; email: string; signed_at: Date | string }>(sql`
      select s.signer_address, u.email, s.signed_at from redemption_signatures s join users u on u.id = s.user_id
      where s.redemption_id = ${id}::uuid order by s.signed_at`),
    db.execute<{ at: Date | string; event: string; detail: string | null }>(sql`
      select at, event, detail from job_events where order_id = ${id}::uuid order by at, id`),
  ])
  const iso = (d: Date | string) => new Date(d).toISOString()
  return {
    redemptionId: row.id,
    status: row.status,
    depositTx: row.deposit_tx_hash,
    depositLogIndex: row.deposit_log_index,
    holder: getAddress(row.holder_address),
    amount: formatOrderAmount(row.amount_wei),
    reference: row.reference,
    requestedBy: row.requested_by_email,
    bars: (bars.get(id) ?? []).map((b) => ({
      serial: b.serial,
      refiner: b.refiner,
      vault: b.vault,
      fineOz: formatOrderAmount((b.fineMilliOz * WEI_PER_MILLI_OZ).toString()),
      status: b.status,
      orderId: b.orderId,
    })),
    signatures: signatures.map((s) => ({ signer: getAddress(s.signer_address), user: s.email, at: iso(s.signed_at) })),
    txHash: row.tx_hash,
    blockNumber: row.block_number,
    failureReason: row.failure_reason,
    rejectionReason: row.rejection_reason,
    intentDeadline: iso(row.intent_deadline),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    burnedAt: row.burned_at === null ? null : iso(row.burned_at),
    timeline: timeline.map((t) => ({ at: iso(t.at), event: t.event, detail: t.detail })),
  }
}
