import { type SQL, sql } from 'drizzle-orm'
import { TASK } from '@/lib/jobs/jobKeys'
import { liveConfirmerSql, orderConfirmJobSql, orderJobSql } from './orderConfirmJobSql'

export type HasLiveConfirmJobSqlParameters = {
  /** the order, a uuid expression (e.g. `sn.order_id`) */
  orderId: SQL
  /** its signer, an address expression */
  signerAddress: SQL
  /** its status, a mint_status expression */
  orderStatus: SQL
}

/**
 * A condition: somebody follows the order's mint to its confirmations, so the nonce
 * health check leaves its nonce alone: an order_confirm job of its own that runs or will
 * run, or (a submitted order without a dead letter of its own) the live signer_confirm
 * of its signer (docs/decisions/030-one-confirmer-per-signer.md), or (a pending order)
 * its mint_send that may still run: a batch broadcasts before it marks its orders
 * submitted and hands them to the confirmer.
 */
export function hasLiveConfirmJobSql({ orderId, signerAddress, orderStatus }: HasLiveConfirmJobSqlParameters): SQL {
  return sql`(${orderConfirmJobSql(orderId, 'live')} or (
    ${orderStatus} = 'submitted' and not ${orderConfirmJobSql(orderId, 'dead')} and ${liveConfirmerSql(signerAddress)}
  ) or (${orderStatus} = 'pending' and ${orderJobSql(TASK.mintSend, orderId, 'live')}))`
}
