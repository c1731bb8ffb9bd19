import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import type { ApiMintBar } from './apiTypes'

/**
 * A stored bar as every view shows it (the staff's order page, the admin's job detail,
 * their APIs). Numerics arrive from Postgres as exact text ('401.125', '999.90'); they
 * are re-read as bigint, never through a float, and written one way: weights with 3
 * decimals, fineness without trailing zeros but with at least one decimal, so '999.90'
 * and '999.9' both show '999.9', and '999.00' shows '999.0'.
 */
export function toApiMintBar(row: ApiMintBar): ApiMintBar {
  return {
    serial: row.serial,
    refiner: row.refiner,
    year: row.year,
    grossOz: ounces(row.grossOz),
    fineness: formatDecimal(parseDecimal(row.fineness, { decimals: 2 }), { decimals: 2, minFraction: 1 }),
    fineOz: ounces(row.fineOz),
  }
}

/** a numeric(12,3) weight as a 3-decimal string */
function ounces(value: string): string {
  return formatDecimal(parseDecimal(value, { decimals: 3 }), { decimals: 3, minFraction: 3 })
}
