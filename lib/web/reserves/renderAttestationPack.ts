import { createHash } from 'node:crypto'
import { csvCell } from '@/lib/web/csv/csvCell'
import type { ApiAttestationBar, ApiAttestationPack } from './apiTypes'

/** One rendering of a pack: its bytes (UTF-8 text) and their sha256 in lower-case hex. */
export type RenderedAttestation = { body: string; sha256: string }

export type RenderAttestationPackReturnType = {
  /** the pack's lists and bars in their canonical order (what the JSON holds) */
  pack: ApiAttestationPack
  json: RenderedAttestation
  csv: RenderedAttestation
}

/** The CSV's columns, in order: one row per backing bar. */
export const ATTESTATION_CSV_COLUMNS = [
  'vault',
  'serial',
  'refiner',
  'fineOz',
  'orderId',
  'txHash',
  'blockNumber',
] as const satisfies readonly (keyof ApiAttestationBar)[]

/**
 * The bytes of an attestation pack, the same for the same pack whatever order its lists and bars came in: lists by
 * vault, bars by vault, serial and refiner, then the mint's block and order id (texts compared by their code units,
 * never by a locale; block numbers as numbers). JSON: the pack's fields in the schema's order, no spaces, one final
 * newline. CSV: a header then one row per bar (RFC 4180, CRLF, cells defused against formula injection by csvCell).
 * Each with its sha256, which GET /api/reserves/attestation sends as `X-Pack-Sha256`.
 *
 * ```ts
 * const pack = await readAttestationPack(db, { chain, chainId, tokenAddress, blockNumber })
 * const { json, csv } = renderAttestationPack(pack)
 * ```
 */
export function renderAttestationPack(pack: ApiAttestationPack): RenderAttestationPackReturnType {
  const ordered: ApiAttestationPack = {
    kind: pack.kind,
    version: pack.version,
    chainId: pack.chainId,
    tokenAddress: pack.tokenAddress,
    block: { number: pack.block.number, hash: pack.block.hash, timestamp: pack.block.timestamp },
    totalSupply: pack.totalSupply,
    barLists: [...pack.barLists]
      .sort((a, b) => compareText(a.vault, b.vault))
      .map((l) => ({
        vault: l.vault,
        listId: l.listId,
        asOf: l.asOf,
        importedAt: l.importedAt,
        barsRoot: l.barsRoot,
        totalFineOz: l.totalFineOz,
        signer: l.signer,
        custodianSignature: l.custodianSignature,
        barCount: l.barCount,
        membersRecorded: l.membersRecorded,
      })),
    bars: [...pack.bars].sort(compareBars).map((b) => ({
      vault: b.vault,
      serial: b.serial,
      refiner: b.refiner,
      fineOz: b.fineOz,
      orderId: b.orderId,
      txHash: b.txHash,
      blockNumber: b.blockNumber,
    })),
    totals: {
      totalSupply: pack.totals.totalSupply,
      backingFineOz: pack.totals.backingFineOz,
      differenceOz: pack.totals.differenceOz,
      status: pack.totals.status,
    },
  }
  const json = `${JSON.stringify(ordered)}\n`
  let csv = `${ATTESTATION_CSV_COLUMNS.join(',')}\r\n`
  for (const bar of ordered.bars) csv += `${ATTESTATION_CSV_COLUMNS.map((c) => csvCell(bar[c])).join(',')}\r\n`
  return { pack: ordered, json: rendered(json), csv: rendered(csv) }
}

function rendered(body: string): RenderedAttestation {
  return { body, sha256: createHash('sha256').update(body, 'utf8').digest('hex') }
}

function compareBars(a: ApiAttestationBar, b: ApiAttestationBar): number {
  return (
    compareText(a.vault, b.vault) ||
    compareText(a.serial, b.serial) ||
    compareText(a.refiner, b.refiner) ||
    compareBlock(a.blockNumber, b.blockNumber) ||
    compareText(a.orderId, b.orderId)
  )
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareBlock(a: string, b: string): number {
  const x = BigInt(a)
  const y = BigInt(b)
  return x < y ? -1 : x > y ? 1 : 0
}
