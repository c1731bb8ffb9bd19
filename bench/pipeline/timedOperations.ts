import { TASK } from '../../lib/jobs/jobKeys'

/** The operations the bench drains and times: mint orders and redemptions. */
export type TimedOperation = 'mint' | 'redemption'

/** Each timed operation's table, its send task and the status it ends in once its transaction has its confirmations. */
export const OPERATION_TABLES: Record<TimedOperation, { table: string; sendTask: string; done: string }> = {
  mint: { table: 'mint_orders', sendTask: TASK.mintSend, done: 'confirmed' },
  redemption: { table: 'redemptions', sendTask: TASK.redemptionSend, done: 'burned' },
}
