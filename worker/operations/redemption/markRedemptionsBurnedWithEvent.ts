import type { Tx } from '@/db/client'
import { recordRedemptionEvent } from '@/lib/notifications/recordRedemptionEvent'
import { type MarkRedemptionsBurnedParameters, markRedemptionsBurned } from '../../db/markRedemptions'

/** Redemptions whose burn has its confirmations: each a redemption.burned event, then burned with its bars redeemed. */
export async function markRedemptionsBurnedWithEvent(tx: Tx, p: MarkRedemptionsBurnedParameters): Promise<void> {
  for (const d of p.done)
    await recordRedemptionEvent(tx, {
      type: 'redemption.burned',
      redemptionId: d.id,
      status: 'burned',
      from: ['pending', 'submitted', 'failed', 'cancelled'],
      data: { txHash: d.txHash },
    })
  await markRedemptionsBurned(tx, p)
}
