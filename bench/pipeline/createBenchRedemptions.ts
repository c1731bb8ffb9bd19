import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { Address } from 'viem'
import * as schema from '../../db/schema'
import type { MinterReader } from '../../lib/web/approvals/MinterReader'
import { createRedemption } from '../../lib/web/redemptions/createRedemption'

export type CreateBenchRedemptionsParameters = {
  /** the senders of the deposits (seedRedemptionDeposits' holders) */
  holders: readonly Address[]
  /** the confirmed mint orders whose backing bars the redemptions take */
  orderIds: readonly string[]
  /** the staff user who requests them */
  staff: { id: string; email: string }
  minter: Pick<MinterReader, 'isFrozen'>
  /** requests at once */
  concurrency: number
}

export type CreateBenchRedemptionsReturnType = { redemptionIds: string[] }

/**
 * One redemption per unmatched deposit of the holders, each matched to one backing bar of the orders whose fine
 * weight equals the deposit's amount, through lib/web/redemptions/createRedemption.ts as a staff request makes it
 * (every check and event of POST /api/gold/redemptions, without the HTTP). Setup, not measured. Throws when a deposit
 * finds no bar of its weight.
 */
export async function createBenchRedemptions(
  sql: postgres.Sql,
  p: CreateBenchRedemptionsParameters,
): Promise<CreateBenchRedemptionsReturnType> {
  const db = drizzle(sql, { schema })
  const deposits = await sql<{ tx_hash: string; log_index: number; amount_wei: string }[]>`
    select d.tx_hash, d.log_index, d.amount_wei::text as amount_wei from deposits d
    where d.from_address = any(${p.holders.map((h) => h.toLowerCase())}::text[]) and not exists (
      select 1 from redemptions r where r.deposit_tx_hash = d.tx_hash and r.deposit_log_index = d.log_index
        and r.status not in ('rejected', 'cancelled'))
    order by d.block_number, d.log_index`
  const bars = await sql<{ serial: string; refiner: string; fine_wei: string }[]>`
    select serial, refiner, ((fine_oz * 1000)::bigint * ${(10n ** 15n).toString()}::numeric)::text as fine_wei
    from vault_bars where order_id = any(${p.orderIds as string[]}::uuid[]) and status = 'backing'
      and redemption_id is null
    order by serial_key`
  const free = new Map<string, { serial: string; refiner: string }[]>()
  for (const b of bars)
    free.set(b.fine_wei, [...(free.get(b.fine_wei) ?? []), { serial: b.serial, refiner: b.refiner }])
  const requests = deposits.map((d, i) => {
    const bar = free.get(d.amount_wei)?.pop()
    if (!bar) throw new Error(`createBenchRedemptions: no backing bar of ${d.amount_wei} wei for deposit ${d.tx_hash}`)
    return { depositTx: d.tx_hash, logIndex: d.log_index, bars: [bar], reference: `bench burn ${i + 1}` }
  })
  const redemptionIds: string[] = new Array(requests.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.max(1, p.concurrency) }, async () => {
      while (next < requests.length) {
        const i = next++
        const input = requests[i]
        if (!input) continue
        const made = await createRedemption(db, { input, user: p.staff, minter: p.minter })
        redemptionIds[i] = made.redemptionId
      }
    }),
  )
  return { redemptionIds }
}
