import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ReserveStatus } from '@/db/schema/reserves'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { formatOz } from '@/lib/reserves/formatOz'
import type { ApiReserveCheck } from './apiTypes'

/**
 * The latest reconciliation check (reserve_checks), in the API's form, with its age as
 * the database sees it (one clock: the worker's rows are stamped by the same server).
 * Null before the first check.
 */
export async function readLatestReserveCheck(db: DbOrTx): Promise<ApiReserveCheck | null> {
  const [row] = await db.execute<{
    at: string
    age_seconds: number
    block_number: string
    total_supply_wei: string
    backing_milli_oz: string
    in_flight_milli_oz: string
    available_milli_oz: string
    missing_milli_oz: string
    shortfall_wei: string
    status: ReserveStatus
  }>(sql`
    select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
      greatest(0, extract(epoch from now() - at))::float8 as age_seconds,
      block_number::text as block_number, total_supply_wei::text as total_supply_wei,
      backing_milli_oz::text as backing_milli_oz, in_flight_milli_oz::text as in_flight_milli_oz,
      available_milli_oz::text as available_milli_oz, missing_milli_oz::text as missing_milli_oz,
      shortfall_wei::text as shortfall_wei, status
    from reserve_checks
    order by at desc, id desc
    limit 1`)
  if (!row) return null
  const milli = (v: string) => formatOz(BigInt(v) * WEI_PER_MILLI_OZ)
  return {
    at: row.at,
    ageSeconds: Math.round(Number(row.age_seconds) * 1000) / 1000,
    blockNumber: row.block_number,
    totalSupply: formatOz(BigInt(row.total_supply_wei)),
    backingFineOz: milli(row.backing_milli_oz),
    inFlightFineOz: milli(row.in_flight_milli_oz),
    availableFineOz: milli(row.available_milli_oz),
    missingFineOz: milli(row.missing_milli_oz),
    shortfallOz: formatOz(BigInt(row.shortfall_wei)),
    status: row.status,
  }
}
