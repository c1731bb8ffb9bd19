import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ReserveStatus } from '@/db/schema/reserves'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { formatOz } from '@/lib/reserves/formatOz'
import type { ApiReserveHistory } from './apiTypes'
import { RESERVES_LIMITS } from './limits'

export type ReadReserveHistoryParameters = {
  /** how far back, in days from now */
  days: number
}

/**
 * GET /api/reserves/history: the supply beside the backing over the last `days`, from the
 * reconciliation checks (reserve_checks, one a minute). The window is cut into
 * RESERVES_LIMITS.historyPoints equal spans and each span answers with its latest check, so
 * a year costs as many points as a day; a span without a check has no point. Oldest first.
 */
export async function readReserveHistory(db: DbOrTx, p: ReadReserveHistoryParameters): Promise<ApiReserveHistory> {
  const spanSeconds = (p.days * 86_400) / RESERVES_LIMITS.historyPoints
  const rows = await db.execute<{
    at: string
    total_supply_wei: string
    backing_milli_oz: string
    in_flight_milli_oz: string
    status: ReserveStatus
  }>(sql`
    select at, total_supply_wei, backing_milli_oz, in_flight_milli_oz, status from (
      select distinct on (c.span)
        to_char(c.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, c.at as sort_at,
        c.total_supply_wei::text as total_supply_wei, c.backing_milli_oz::text as backing_milli_oz,
        c.in_flight_milli_oz::text as in_flight_milli_oz, c.status
      from (
        select r.*, floor(extract(epoch from r.at) / ${spanSeconds}::float8) as span
        from reserve_checks r
        where r.at > now() - make_interval(days => ${p.days}::int)
      ) c
      order by c.span, c.at desc, c.id desc
    ) latest_of_each_span
    order by sort_at`)
  const milli = (v: string) => formatOz(BigInt(v) * WEI_PER_MILLI_OZ)
  return {
    days: p.days,
    points: rows.map((r) => ({
      at: r.at,
      totalSupply: formatOz(BigInt(r.total_supply_wei)),
      backingFineOz: milli(r.backing_milli_oz),
      inFlightFineOz: milli(r.in_flight_milli_oz),
      status: r.status,
    })),
  }
}
