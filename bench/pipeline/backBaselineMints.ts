import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import * as schema from '../../db/schema'
import { computeFineOz } from '../../lib/mint/computeFineOz'
import { WEI_PER_MILLI_OZ } from '../../lib/money/units'
import { DEV_STAFF_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { BAR_LIST_LIMITS } from '../../lib/web/vault/barListLimits'
import { importBarList } from '../../lib/web/vault/importBarList'
import { parseBarList } from '../../lib/web/vault/parseBarList'

export type BackBaselineMintsParameters = {
  /** names the bench vaults and the order: `BENCH-BASE-<label>-<k>` */
  label: string
  /** the baselines' mints sent (or at most sent), each of amountWei */
  mints: number
  amountWei: bigint
}

const GROSS_MILLI_OZ = 400_000n
const FINENESS_HUNDREDTHS = 99_999n

/**
 * The chain baselines (sequential loop, raw limit) mint with their own keys, straight to
 * the token, outside mintdesk: tokens with no bars behind them. The worker's check
 * before signing (worker/mint/checkBeforeSigning.ts) would then refuse every order of
 * the pipeline (supply above reserves). So the bench records them as the custodian and a
 * confirmed order would: bench bar lists with enough 400 oz bars, all backing one
 * confirmed "baseline" order. Setup, not measured.
 */
export async function backBaselineMints(sql: postgres.Sql, p: BackBaselineMintsParameters): Promise<{ bars: number }> {
  if (p.mints <= 0) return { bars: 0 }
  const db = drizzle(sql, { schema })
  const fine = computeFineOz({ grossMilliOz: GROSS_MILLI_OZ, finenessHundredths: FINENESS_HUNDREDTHS })
  const neededMilli = (BigInt(p.mints) * p.amountWei + WEI_PER_MILLI_OZ - 1n) / WEI_PER_MILLI_OZ
  const count = Number((neededMilli + fine - 1n) / fine)
  const [staff] = await sql<{ id: string }[]>`select id::text as id from users where email = ${DEV_STAFF_EMAIL}`
  if (!staff) throw new Error('the dev staff user is missing')
  const [order] = await sql<{ id: string }[]>`
    insert into mint_orders (to_address, amount_wei, status, vault, receipt_ref, document_sha256, requested_by, confirmed_at)
    values ('0x0000000000000000000000000000000000000000', ${(BigInt(count) * fine * WEI_PER_MILLI_OZ).toString()}, 'confirmed',
      ${`BENCH-BASE-${p.label}-0`}, ${`bench baselines ${p.label}`}, ${'0'.repeat(64)}, ${staff.id}::uuid, now())
    returning id::text as id`
  if (!order) throw new Error('no baseline order')
  for (let from = 0, k = 0; from < count; from += BAR_LIST_LIMITS.maxBars, k++) {
    const vault = `BENCH-BASE-${p.label}-${k}`
    const bars = Array.from({ length: Math.min(BAR_LIST_LIMITS.maxBars, count - from) }, (_, i) => ({
      serial: `BASE-${p.label}-${from + i}`,
      refiner: 'Valcambi SA',
      year: 2025,
      grossOz: '400.000',
      fineness: '999.99',
    }))
    const list = parseBarList({ format: 'value', value: { vault, asOf: new Date().toISOString(), bars } })
    await importBarList(db, {
      list,
      actor: null,
      metadata: { source: 'npm run bench (baseline mints)', devData: true },
    })
    await sql`
      with held as (
        update vault_bars set status = 'backing', order_id = ${order.id}::uuid, updated_at = now()
        where vault = ${vault} and status = 'available'
        returning id, serial_key
      )
      insert into mint_order_bars (order_id, bar_id, position)
      select ${order.id}::uuid, id, ${from} + row_number() over (order by serial_key) - 1 from held`
  }
  return { bars: count }
}
