import type postgres from 'postgres'
import { sleep } from '../system/clock'

/**
 * Waits until no order is pending or submitted: after a run whose orders the bench does
 * not follow one by one (autocannon's intake beside a running worker), the next run starts
 * from an empty pipeline. Past the timeout it logs what is left and goes on.
 */
export async function waitForQuietPipeline(
  sql: postgres.Sql,
  { timeoutMs, log }: { timeoutMs: number; log: (line: string) => void },
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [row] = await sql<
      { n: number }[]
    >`select count(*)::int as n from mint_orders where status in ('pending', 'submitted')`
    const left = row?.n ?? 0
    if (left === 0) return
    if (Date.now() > deadline) {
      log(`${left} order(s) still pending or submitted after ${Math.round(timeoutMs / 1000)} s; going on`)
      return
    }
    await sleep(500)
  }
}
