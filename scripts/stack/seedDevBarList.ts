import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import type { GoldMinterDomainParameters } from '../../lib/chain/typedData'
import type { ApiBarListImport } from '../../lib/web/vault/apiTypes'
import { importBarList } from '../../lib/web/vault/importBarList'
import { parseBarList } from '../../lib/web/vault/parseBarList'
import { devCustodianSignature } from './devCustodianSignature'

export type SeedDevBarListParameters = {
  vault?: string
  /** how many bars (2,000 by default) */
  count?: number
  log?: (line: string) => void
  /** the stack's GoldMinter (the dev custodian signs the list for it); the fresh dev chain's by default */
  domain?: GoldMinterDomainParameters
}

export type SeedDevBarListReturnType = { seeded: false; reason: string } | { seeded: true; result: ApiBarListImport }

/** Good Delivery refiners (LBMA list) and the serial prefix each is given here. */
const REFINERS = [
  ['Valcambi SA', 'VC'],
  ['PAMP SA', 'PA'],
  ['Argor-Heraeus SA', 'AH'],
  ['Metalor Technologies SA', 'MT'],
  ['Heraeus Deutschland GmbH & Co. KG', 'HD'],
  ['Rand Refinery (Pty) Ltd', 'RR'],
  ['The Perth Mint', 'PM'],
  ['Royal Canadian Mint', 'RC'],
  ['Umicore SA Business Unit Precious Metals Refining', 'UM'],
  ['Asahi Refining Canada Ltd', 'AR'],
] as const
const FINENESS = ['999.9', '999.5', '995.0'] as const

export const DEV_BAR_LIST_METADATA = {
  devData: true,
  source: 'npm start (scripts/stack): generated dev bars, not a custodian list',
} as const

/**
 * The local stack's dev inventory: a generated bar list for vault LDN-1 (2,000 bars,
 * refiners from the LBMA Good Delivery list, gross 350-430 oz, fineness 999.9, 999.5 or
 * 995.0), so a new user can request mints at once. Labelled as dev data in the list's
 * metadata and in the log. Once: a vault that has any bar list already is left alone.
 * The same seed gives the same bars (a deterministic generator). Dev and tests only:
 * production never calls it.
 */
export async function seedDevBarList(db: Db, p: SeedDevBarListParameters = {}): Promise<SeedDevBarListReturnType> {
  const vault = p.vault ?? 'LDN-1'
  const log = p.log ?? (() => {})
  const [existing] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from bar_lists where vault = ${vault}`,
  )
  if ((existing?.n ?? 0) > 0) {
    const reason = `vault ${vault} has a bar list already`
    log(`dev bar list: not seeded (${reason})`)
    return { seeded: false, reason }
  }
  const list = parseBarList({
    format: 'value',
    value: { vault, asOf: new Date().toISOString(), bars: generateDevBars(p.count ?? 2_000) },
  })
  const result = await importBarList(db, {
    list,
    actor: null,
    metadata: { ...DEV_BAR_LIST_METADATA },
    custodian: await devCustodianSignature(list, p.domain),
  })
  log(`dev bar list: ${result.added} generated bars (DEV DATA, not a custodian's list) imported for vault ${vault}`)
  return { seeded: true, result }
}

/** Deterministic dev bars: a small PRNG (mulberry32) from a fixed seed. */
export function generateDevBars(count: number) {
  let a = 0x6d696e74
  const rng = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const thisYear = new Date().getUTCFullYear()
  return Array.from({ length: count }, (_, i) => {
    const [refiner, prefix] = REFINERS[Math.floor(rng() * REFINERS.length)] ?? REFINERS[0]
    const grossMilli = 350_000 + Math.floor(rng() * 80_001)
    return {
      serial: `${prefix}${String(100_000 + i * 7 + Math.floor(rng() * 7)).padStart(6, '0')}`,
      refiner,
      year: thisYear - Math.floor(rng() * 10),
      grossOz: `${Math.floor(grossMilli / 1000)}.${String(grossMilli % 1000).padStart(3, '0')}`,
      fineness: FINENESS[Math.floor(rng() * FINENESS.length)] ?? '999.9',
    }
  })
}
