import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import type { AdminActor } from '@/lib/admin/recordAudit'
import { barKey } from '@/lib/mint/barKey'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import type { ApiBarListImport } from '@/lib/web/vault/apiTypes'
import { importBarList } from '@/lib/web/vault/importBarList'
import { type ParsedBarList, parseBarList } from '@/lib/web/vault/parseBarList'
import { devCustodianSignature } from '@/scripts/stack/devCustodianSignature'

// TEST ONLY: custodian bar lists for the tests. Bars are never typed in by a request any
// more (docs/architecture.md invariant 4): a test that requests a mint first puts its bars on
// the vault's bar list.

/** A bar as a test names it; the defaults are buildMintRequest's (Valcambi SA, 2025, 401.125 oz, 999.9). */
export type TestListBar = { serial: string; refiner?: string; year?: number; grossOz?: string; fineness?: string }

export type BuildBarListParameters = { vault?: string; asOf?: Date; bars: readonly TestListBar[] }

/** A validated list (parseBarList) of the given bars, vault LDN-1 and now by default. */
export function buildBarList(p: BuildBarListParameters): ParsedBarList {
  return parseBarList({
    format: 'value',
    value: {
      vault: p.vault ?? 'LDN-1',
      asOf: (p.asOf ?? new Date()).toISOString(),
      bars: p.bars.map((b) => ({
        serial: b.serial,
        refiner: b.refiner ?? 'Valcambi SA',
        year: b.year ?? 2025,
        grossOz: b.grossOz ?? '401.125',
        fineness: b.fineness ?? '999.9',
      })),
    },
  })
}

const REFINERS = [
  'Valcambi SA',
  'PAMP SA',
  'Argor-Heraeus SA',
  'Metalor Technologies SA',
  'Heraeus Deutschland GmbH & Co. KG',
  'Rand Refinery (Pty) Ltd',
]
const FINENESS = ['999.9', '999.5', '995.0']

/**
 * `count` distinct bars, deterministic for a prefix: serial `<prefix><n>`, refiners and
 * finenesses in turn, gross weights from 350 to 430 oz.
 */
export function generateTestBars({ count, prefix = 'GEN' }: { count: number; prefix?: string }): TestListBar[] {
  return Array.from({ length: count }, (_, i) => ({
    serial: `${prefix}${String(i).padStart(6, '0')}`,
    refiner: REFINERS[i % REFINERS.length],
    year: 2015 + (i % 10),
    grossOz: `${350 + ((i * 7919) % 80)}.${String((i * 104_729) % 1000).padStart(3, '0')}`,
    fineness: FINENESS[i % FINENESS.length],
  }))
}

export type ImportTestBarListParameters = BuildBarListParameters & { actor?: AdminActor | null; chunkSize?: number }

/**
 * Builds and imports one list (a snapshot: the vault's bars it lacks are withdrawn or missing).
 * With no `asOf`: now, or a second after the vault's latest list if that is later (GoldMinter
 * orders a vault's lists by whole seconds: a second list in the same second is not newer).
 */
export async function importTestBarList(db: Db, p: ImportTestBarListParameters): Promise<ApiBarListImport> {
  const list = buildBarList({ ...p, asOf: p.asOf ?? (await nextAsOf(db, p.vault ?? 'LDN-1')) })
  // signed by the dev custodian (index 12) for the fresh test chain's GoldMinter
  return importBarList(db, {
    list,
    actor: p.actor ?? null,
    chunkSize: p.chunkSize,
    custodian: await devCustodianSignature(list),
  })
}

/** Now, or the second after the vault's latest list's asOf (whole seconds) if that is later. */
async function nextAsOf(db: Db, vault: string): Promise<Date> {
  const [row] = await db.execute<{ as_of: Date | string | null }>(
    sql`select max(as_of) as as_of from bar_lists where vault = ${vault}`,
  )
  const latest = row?.as_of ? new Date(row.as_of).getTime() : 0
  return new Date(Math.max(Date.now(), (Math.floor(latest / 1000) + 1) * 1000))
}

const queues = new Map<string, Promise<unknown>>()

/**
 * Puts bars on a vault's bar list without taking any off: imports a new snapshot (as of
 * now, a second after the vault's latest) with every bar of the latest list plus these.
 * Bars already listed are left as they are; when all are, nothing is imported (null). Calls
 * for one vault run one after the other in this process (a snapshot read and imported by
 * two at once would drop one's bars).
 */
export async function stockBars(
  db: Db,
  p: { vault?: string; bars: readonly TestListBar[] },
): Promise<ApiBarListImport | null> {
  const vault = p.vault ?? 'LDN-1'
  const run = async () => {
    const listed = await db.execute<{
      serial: string
      refiner: string
      year: number
      gross_oz: string
      fineness: string
    }>(sql`
      with latest as (select id from bar_lists where vault = ${vault} order by as_of desc, imported_at desc limit 1)
      select b.serial, b.refiner, b.year, b.gross_oz::text as gross_oz, b.fineness::text as fineness
      from vault_bars b where b.vault = ${vault} and b.last_list_id = (select id from latest)`)
    const [latestRow] = await db.execute<{ as_of: Date | string }>(
      sql`select max(as_of) as as_of from bar_lists where vault = ${vault}`,
    )
    const latest = latestRow?.as_of ? new Date(latestRow.as_of).getTime() : 0
    const bars = new Map<string, TestListBar>()
    const keyOf = (b: TestListBar) => barKey({ serial: b.serial, refiner: b.refiner ?? 'Valcambi SA' })
    for (const b of listed) {
      const bar = { serial: b.serial, refiner: b.refiner, year: b.year, grossOz: b.gross_oz, fineness: b.fineness }
      bars.set(keyOf(bar), bar)
    }
    const added = p.bars.filter((b) => !bars.has(keyOf(b)))
    if (added.length === 0 && latest > 0) return null // all listed already
    for (const b of added) bars.set(keyOf(b), b)
    return importTestBarList(db, { vault, bars: [...bars.values()] })
  }
  const previous = queues.get(vault) ?? Promise.resolve()
  const next = previous.catch(() => {}).then(run)
  queues.set(vault, next)
  return next
}

/** Puts the bars a mint request names (with their weights) on its vault's bar list, so the intake accepts them. */
export async function stockBarsOf(db: Db, request: MintRequestInput | readonly MintRequestInput[]): Promise<void> {
  const requests = Array.isArray(request) ? (request as readonly MintRequestInput[]) : [request as MintRequestInput]
  const byVault = new Map<string, TestListBar[]>()
  for (const r of requests) {
    const bars = byVault.get(r.vaultProof.vault) ?? []
    for (const b of r.vaultProof.bars)
      bars.push({ serial: b.serial, refiner: b.refiner, year: b.year, grossOz: b.grossOz, fineness: b.fineness })
    byVault.set(r.vaultProof.vault, bars)
  }
  for (const [vault, bars] of byVault) await stockBars(db, { vault: vault.trim(), bars })
}
