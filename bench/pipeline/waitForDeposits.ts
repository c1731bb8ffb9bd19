import type postgres from 'postgres'
import type { Address } from 'viem'
import { sleep } from '../system/clock'

export type WaitForDepositsParameters = {
  /** the senders whose deposits count */
  holders: readonly Address[]
  /** how many unmatched deposits of theirs to wait for */
  count: number
  timeoutMs: number
}

/**
 * Polls `deposits` (written by a running worker's deposit_watch) until the holders have `count` deposits held by no
 * open redemption; throws when the time is up.
 */
export async function waitForDeposits(sql: postgres.Sql, p: WaitForDepositsParameters): Promise<void> {
  const holders = p.holders.map((h) => h.toLowerCase())
  const deadline = Date.now() + p.timeoutMs
  for (;;) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from deposits d
      where d.from_address = any(${holders}::text[]) and not exists (
        select 1 from redemptions r where r.deposit_tx_hash = d.tx_hash and r.deposit_log_index = d.log_index
          and r.status not in ('rejected', 'cancelled'))`
    const n = row?.n ?? 0
    if (n >= p.count) return
    if (Date.now() > deadline) throw new Error(`waitForDeposits: ${n} of ${p.count} deposits seen in time`)
    await sleep(250)
  }
}
