import type postgres from 'postgres'
import { sleep } from '../system/clock'
import { OPERATION_TABLES, type TimedOperation } from './timedOperations'

export type WaitForOrdersParameters = {
  sql: postgres.Sql
  orderIds: readonly string[]
  timeoutMs: number
  /** mint orders (confirmed or failed) by default; redemptions: burned or failed */
  operation?: TimedOperation
}

export type WaitForOrdersReturnType = { byStatus: Record<string, number>; settled: boolean }

/**
 * Polls until every order is confirmed or failed (a redemption: burned or failed), or the time is up: the report then
 * says how many were not.
 */
export async function waitForOrders({
  sql,
  orderIds,
  timeoutMs,
  operation = 'mint',
}: WaitForOrdersParameters): Promise<WaitForOrdersReturnType> {
  const { table, done } = OPERATION_TABLES[operation]
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const rows = await sql<{ status: string; n: number }[]>`
      select status::text as status, count(*)::int as n from ${sql(table)} where id = any(${orderIds as string[]}::uuid[]) group by status`
    const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]))
    const settled = (byStatus[done] ?? 0) + (byStatus.failed ?? 0) >= orderIds.length
    if (settled || Date.now() > deadline) return { byStatus, settled }
    await sleep(250)
  }
}
