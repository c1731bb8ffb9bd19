import { sql } from 'drizzle-orm'
import { type Address, type Hex, isHex, recoverTypedDataAddress } from 'viem'
import type { Db, Tx } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { barListAsOf } from '@/lib/chain/barListAsOf'
import { barListTypedData, type GoldMinterDomainParameters } from '@/lib/chain/typedData'
import { InvalidSignatureError } from '@/lib/errors/approvals'
import { lockVault } from '@/lib/vault/lockVault'
import { StaleBarListError } from '@/lib/web/errors/vault'
import { barListMessage } from '@/lib/web/vault/barListMessage'
import type { ApiBarConflict, ApiBarListImport, ApiMissingBar } from './apiTypes'
import type { OnImportProgress } from './importProgress'
import type { BarListBar, ParsedBarList } from './parseBarList'

export type ImportBarListParameters = {
  /** a list validated by parseBarList */
  list: ParsedBarList
  /** the admin who imports it (audited); null for a script such as the dev seed (not audited) */
  actor: AdminActor | null
  /** labels kept with the list (the dev seed says it is dev data) */
  metadata?: Record<string, unknown>
  /** rows per statement when loading the list; tests make it small */
  chunkSize?: number
  /** the custodian's EIP-712 signature of the list (the Custodian-Signature header), and who may sign it */
  custodian: CustodianSignature
  /** told as the bars are loaded (`apply`, bars of the list), from the signature's check on */
  onProgress?: OnImportProgress
}

/** A list's signature, and the rule that says whose signature counts (GoldMinter's, on chain). */
export type CustodianSignature = {
  signature: string
  domain: GoldMinterDomainParameters
  /** whether `address` may sign lists of `vault`: the custodian bound to it, else a registered custodian */
  mayAttest(p: { vault: string; address: Address }): Promise<boolean>
}

export type ImportBarListReturnType = ApiBarListImport

const DEFAULT_CHUNK = 10_000

/**
 * Imports a custodian's bar list: a snapshot of one vault at `asOf`, signed by its
 * custodian. First, before anything is written: the list's BarList (lib/web/vault/barListMessage:
 * the root and total of its bars) must be what `custodian.signature` signs, by a key that may
 * attest the vault (custodian.mayAttest); else InvalidSignatureError (422). Then in ONE
 * transaction, holding the vault's lock exclusively (lib/vault/lockVault), the list is stored
 * with its root, total, custodian and signature, and:
 * - the same list again (same vault, asOf and content hash) changes nothing and answers
 *   what its first import answered;
 * - a list whose asOf second (lib/chain/barListAsOf) is not after the vault's latest one's:
 *   StaleBarListError (409), nothing written (GoldMinter would refuse to attest it);
 * - bars new to the inventory -> `available`;
 * - bars of the vault that the list has: `unchanged`; a withdrawn one is available
 *   again, a missing one is reserved or backing again (per its order);
 * - a listed bar whose vault, year, gross weight or fineness differs from the inventory
 *   is a conflict: reported, never applied (a bar of another vault stays there);
 * - bars of the vault that the list lacks: `withdrawn` when free or redeemed (the custodian
 *   released a redeemed bar: it keeps its redemption), `missing` when reserved or backing
 *   (they keep their order).
 * - every listed bar is recorded as a member of the list (bar_list_members), so a past list's bars stay known.
 * Set-based: the list is loaded into a temporary table in chunks (unnest of arrays),
 * then a handful of statements do the rest, so 100,000 bars take seconds. Audited
 * (vault.bar_list_import) in the same transaction when an admin imports it.
 */
export async function importBarList(db: Db, p: ImportBarListParameters): Promise<ImportBarListReturnType> {
  const { list } = p
  const signed = await verifyCustodianSignature(list, p.custodian)
  return db.transaction(async (tx) => {
    await lockVault(tx, { vault: list.vault, mode: 'exclusive' })

    const replay = await findSameList(tx, list)
    if (replay) {
      if (p.actor)
        await audit(tx, p.actor, replay, {
          barCount: list.bars.length,
          contentSha256: list.contentSha256,
          replay: true,
        })
      return replay
    }

    const [latest] = await tx.execute<{ as_of: Date | string }>(
      sql`select as_of from bar_lists where vault = ${list.vault} order by as_of desc limit 1`,
    )
    // GoldMinter refuses a list whose whole second is not after the attested one's: so does the import
    if (latest && barListAsOf(new Date(latest.as_of)) >= barListAsOf(list.asOf)) {
      throw new StaleBarListError({ vault: list.vault, asOf: list.asOf, latestAsOf: new Date(latest.as_of) })
    }

    const [row] = await tx.execute<{ id: string }>(sql`
      insert into bar_lists (vault, as_of, content_sha256, imported_by, bar_count, metadata, bars_root, total_fine_wei,
        custodian_address, custodian_signature)
      values (${list.vault}, ${list.asOf.toISOString()}::timestamptz, ${list.contentSha256},
              ${p.actor?.id ?? null}::uuid, ${list.bars.length}, ${p.metadata ? JSON.stringify(p.metadata) : null}::jsonb,
              ${signed.barsRoot}, ${signed.totalFineWei.toString()}::numeric, ${signed.custodian.toLowerCase()},
              ${signed.signature})
      returning id::text as id`)
    if (!row) throw new Error('insert into bar_lists returned no row')
    const listId = row.id

    await insertListIntoTempTable(tx, list.bars, p.chunkSize ?? DEFAULT_CHUNK, p.onProgress)
    const conflicts = await findConflicts(tx, list.vault)
    const present = await markPresent(tx, { vault: list.vault, listId })
    const added = await insertNew(tx, { vault: list.vault, listId })
    await recordMembers(tx, { listId })
    const withdrawn = await count(
      tx,
      sql`
      update vault_bars b set status = 'withdrawn', order_id = null, updated_at = now()
      where b.vault = ${list.vault} and b.status in ('available', 'redeemed') and not exists (
        select 1 from bar_list_import i where i.serial_key = b.serial_key and i.refiner_key = b.refiner_key)
      returning 1`,
    )
    await tx.execute(sql`
      update vault_bars b set status = 'missing', updated_at = now()
      where b.vault = ${list.vault} and b.status in ('reserved', 'backing') and not exists (
        select 1 from bar_list_import i where i.serial_key = b.serial_key and i.refiner_key = b.refiner_key)`)
    const missing = (
      await tx.execute<{ serial: string; refiner: string; order_id: string | null }>(sql`
        select serial, refiner, order_id::text as order_id from vault_bars
        where vault = ${list.vault} and status = 'missing' order by serial_key, refiner_key`)
    ).map((m): ApiMissingBar => ({ serial: m.serial, refiner: m.refiner, orderId: m.order_id }))

    // a bar of this vault with an attribute conflict is present, but not unchanged
    const conflicted = new Set(conflicts.filter((c) => c.field !== 'vault').map((c) => `${c.serial}\u0000${c.refiner}`))
      .size
    const result: ApiBarListImport = {
      listId,
      vault: list.vault,
      asOf: list.asOf.toISOString(),
      added,
      unchanged: present - conflicted,
      withdrawn,
      missing,
      conflicts,
    }
    await tx.execute(sql`
      update bar_lists set added = ${result.added}, unchanged = ${result.unchanged}, withdrawn = ${result.withdrawn},
        missing = ${JSON.stringify(missing)}::jsonb, conflicts = ${JSON.stringify(conflicts)}::jsonb
      where id = ${listId}::uuid`)
    if (p.actor)
      await audit(tx, p.actor, result, { barCount: list.bars.length, contentSha256: list.contentSha256, replay: false })
    return result
  })
}

/** The custodian who signed the list's BarList, if it may attest the vault; else InvalidSignatureError. */
async function verifyCustodianSignature(list: ParsedBarList, custodian: CustodianSignature) {
  if (!isHex(custodian.signature) || custodian.signature.length < 132)
    throw new InvalidSignatureError('The Custodian-Signature is not a 65-byte hex signature.')
  const signature = custodian.signature as Hex
  const message = barListMessage(list)
  // the typed data of the message computed once: its root is a hash of every bar of the list
  const signer = await recoverTypedDataAddress({
    ...barListTypedData(custodian.domain, message),
    signature,
  }).catch(() => undefined)
  if (!signer || !(await custodian.mayAttest({ vault: list.vault, address: signer })))
    throw new InvalidSignatureError(`The bar list of ${list.vault} is not signed by a custodian key of that vault.`)
  return { ...message, custodian: signer, signature }
}

/** The answer of the first import of this very list, if there was one. */
async function findSameList(tx: Tx, list: ParsedBarList): Promise<ApiBarListImport | null> {
  const [row] = await tx.execute<{
    id: string
    as_of: Date | string
    added: number
    unchanged: number
    withdrawn: number
    missing: ApiMissingBar[]
    conflicts: ApiBarConflict[]
  }>(sql`
    select id::text as id, as_of, added, unchanged, withdrawn, missing, conflicts from bar_lists
    where vault = ${list.vault} and as_of = ${list.asOf.toISOString()}::timestamptz and content_sha256 = ${list.contentSha256}`)
  if (!row) return null
  return {
    listId: row.id,
    vault: list.vault,
    asOf: new Date(row.as_of).toISOString(),
    added: row.added,
    unchanged: row.unchanged,
    withdrawn: row.withdrawn,
    missing: row.missing,
    conflicts: row.conflicts,
  }
}

/** The list into a temporary table (dropped at commit), in chunks of JSON rows. */
async function insertListIntoTempTable(
  tx: Tx,
  bars: readonly BarListBar[],
  chunkSize: number,
  onProgress: OnImportProgress | undefined,
): Promise<void> {
  onProgress?.({ phase: 'apply', done: 0, total: bars.length })
  await tx.execute(sql`
    create temporary table bar_list_import (
      serial text not null, refiner text not null, serial_key text not null, refiner_key text not null,
      year integer not null, gross_oz numeric(12, 3) not null, fineness numeric(5, 2) not null, fine_oz numeric(12, 3) not null
    ) on commit drop`)
  for (let from = 0; from < bars.length; from += chunkSize) {
    const chunk = bars.slice(from, from + chunkSize)
    const column = (pick: (b: BarListBar) => string | number) => textArray(chunk.map((b) => String(pick(b))))
    await tx.execute(sql`
      insert into bar_list_import (serial, refiner, serial_key, refiner_key, year, gross_oz, fineness, fine_oz)
      select * from unnest(${column((b) => b.serial)}::text[], ${column((b) => b.refiner)}::text[],
        ${column((b) => b.serialKey)}::text[], ${column((b) => b.refinerKey)}::text[], ${column((b) => b.year)}::integer[],
        ${column((b) => b.grossOz)}::numeric[], ${column((b) => b.fineness)}::numeric[], ${column((b) => b.fineOz)}::numeric[])`)
    onProgress?.({ phase: 'apply', done: from + chunk.length, total: bars.length })
  }
  await tx.execute(sql`create unique index on bar_list_import (serial_key, refiner_key)`)
  await tx.execute(sql`analyze bar_list_import`)
}

/** A Postgres array literal of texts, each element quoted (one bound parameter, whatever its length). */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`
}

/** Listed bars already in the inventory with another vault, year, gross weight or fineness. */
async function findConflicts(tx: Tx, vault: string): Promise<ApiBarConflict[]> {
  const rows = await tx.execute<{
    serial: string
    refiner: string
    b_vault: string
    b_year: number
    b_gross: string
    b_fineness: string
    i_year: number
    i_gross: string
    i_fineness: string
  }>(sql`
    select i.serial, i.refiner, b.vault as b_vault, b.year as b_year, b.gross_oz::text as b_gross, b.fineness::text as b_fineness,
           i.year as i_year, i.gross_oz::text as i_gross, i.fineness::text as i_fineness
    from bar_list_import i
    join vault_bars b on b.serial_key = i.serial_key and b.refiner_key = i.refiner_key
    where b.vault <> ${vault} or b.year <> i.year or b.gross_oz <> i.gross_oz or b.fineness <> i.fineness
    order by i.serial_key, i.refiner_key`)
  const out: ApiBarConflict[] = []
  for (const r of rows) {
    const bar = { serial: r.serial, refiner: r.refiner }
    if (r.b_vault !== vault) out.push({ ...bar, field: 'vault', inventory: r.b_vault, list: vault })
    if (r.b_year !== r.i_year) out.push({ ...bar, field: 'year', inventory: String(r.b_year), list: String(r.i_year) })
    if (r.b_gross !== r.i_gross) out.push({ ...bar, field: 'grossOz', inventory: r.b_gross, list: r.i_gross })
    if (r.b_fineness !== r.i_fineness)
      out.push({ ...bar, field: 'fineness', inventory: r.b_fineness, list: r.i_fineness })
  }
  return out
}

/**
 * The vault's bars that the list has: on this list now; a withdrawn one available again (a
 * redeemed bar released and listed again is free of its redemption), a missing one reserved or
 * backing again, as its order says (a missing bar without an order is simply available); a
 * redeemed bar stays redeemed until a list lacks it. Returns how many.
 */
async function markPresent(tx: Tx, { vault, listId }: { vault: string; listId: string }): Promise<number> {
  return count(
    tx,
    sql`
    update vault_bars b set
      last_list_id = ${listId}::uuid,
      status = (case
        when b.status = 'withdrawn' then 'available'
        when b.status = 'missing' and b.order_id is null then 'available'
        when b.status = 'missing' then
          case when (select o.status::text from mint_orders o where o.id = b.order_id) = 'confirmed' then 'backing' else 'reserved' end
        else b.status::text end)::bar_status,
      redemption_id = case when b.status = 'withdrawn' then null else b.redemption_id end,
      updated_at = case when b.status in ('withdrawn', 'missing') then now() else b.updated_at end
    from bar_list_import i
    where b.vault = ${vault} and b.serial_key = i.serial_key and b.refiner_key = i.refiner_key
    returning 1`,
  )
}

/** Bars new to the inventory (no vault has them): available, on this list. Returns how many. */
async function insertNew(tx: Tx, { vault, listId }: { vault: string; listId: string }): Promise<number> {
  return count(
    tx,
    sql`
    insert into vault_bars (vault, serial, refiner, serial_key, refiner_key, year, gross_oz, fineness, fine_oz, status, last_list_id)
    select ${vault}, i.serial, i.refiner, i.serial_key, i.refiner_key, i.year, i.gross_oz, i.fineness, i.fine_oz, 'available', ${listId}::uuid
    from bar_list_import i
    where not exists (select 1 from vault_bars b where b.serial_key = i.serial_key and b.refiner_key = i.refiner_key)
    on conflict (serial_key, refiner_key) do nothing
    returning 1`,
  )
}

/**
 * The list's members (bar_list_members): the inventory row of every listed bar, whichever vault holds it, in one
 * statement over the temporary table (its unique index and vault_bars_key), after the new bars were inserted.
 */
async function recordMembers(tx: Tx, { listId }: { listId: string }): Promise<void> {
  await tx.execute(sql`
    insert into bar_list_members (list_id, bar_id)
    select ${listId}::uuid, b.id
    from bar_list_import i
    join vault_bars b on b.serial_key = i.serial_key and b.refiner_key = i.refiner_key`)
}

/** Runs a statement ending in `returning 1` and counts its rows in the database. */
async function count(tx: Tx, statement: ReturnType<typeof sql>): Promise<number> {
  const [row] = await tx.execute<{ n: number }>(
    sql`with changed as (${statement}) select count(*)::int as n from changed`,
  )
  return row?.n ?? 0
}

async function audit(
  tx: Tx,
  actor: AdminActor,
  result: ApiBarListImport,
  extra: { barCount: number; contentSha256: string; replay: boolean },
): Promise<void> {
  await recordAudit(tx, {
    actor,
    action: 'vault.bar_list_import',
    targetType: 'bar_list',
    targetId: result.listId,
    detail: {
      vault: result.vault,
      asOf: result.asOf,
      ...extra,
      added: result.added,
      unchanged: result.unchanged,
      withdrawn: result.withdrawn,
      missing: result.missing.length,
      conflicts: result.conflicts.length,
    },
  })
}
