import type postgres from 'postgres'
import { sleep } from '../system/clock'

export type WaitForOrdersParameters = { sql: postgres.Sql; orderIds: readonly string[]; timeoutMs: number }

export type WaitForOrdersReturnType = { byStatus: Record<string, number>; settled: boolean }

/** Polls until every order is confirmed or failed (or the time is up: the report then says how many were not). */
export async function waitForOrders({
  sql,
  orderIds,
  timeoutMs,
}: WaitForOrdersParameters): Promise<WaitForOrdersReturnType> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const rows = await sql<{ status: string; n: number }[]>`
      select status::text as status, count(*)::int as n from mint_orders where id = any(${orderIds as string[]}::uuid[]) group by status`
    const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]))
    const settled = (byStatus.confirmed ?? 0) + (byStatus.failed ?? 0) >= orderIds.length
    if (settled || Date.now() > deadline) return { byStatus, settled }
    await sleep(250)
  }
}
