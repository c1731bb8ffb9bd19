import { devKey } from '@/lib/keys/devKeys'
import { type TypedDataJson, toViemTypedData } from '@/lib/web/signing/toViemTypedData'
import { apiClientOf } from '../http/apiClientOf'
import type { HttpSession } from '../http/signIn'
import { readProcMemory } from '../system/proc'
import type { ProcessGroupsSource } from '../system/processGroups'
import { startMemorySampler } from '../system/startMemorySampler'

/** a bar list as a custodian's tool sends it: CSV as it is, with ?vault=&asOf= (docs/api.md "Vault inventory") */
const asCsv = { bodySerializer: (csv: string) => csv, headers: { 'content-type': 'text/csv' } }

export type BarListImportRun = {
  /** 'new' (every bar new to the inventory) or 'snapshot' (the same bars again as a later list: all unchanged) */
  kind: 'new' | 'snapshot'
  /** request sent -> 201 answered (parse, temp table, the set-based statements, commit) */
  seconds: number
  status: number
  added: number
  unchanged: number
  /** the web's resident set just before the POST, kB */
  webRssBeforeKb: number
  /** the web's peak resident set (VmHWM, since it started) right after the POST, kB */
  webHwmAfterKb: number
  /** the largest proportional set size of the web's process tree sampled (every 100 ms) during the POST, kB */
  webPeakPssKb: number
}

export type BarListImportResult = { bars: number; csvBytes: number; vault: string; runs: BarListImportRun[] }

export type RunBarListImportParameters = {
  /** an admin's session (imports are admin only) */
  session: HttpSession
  runId: string
  bars: number
  groups: ProcessGroupsSource
  log: (line: string) => void
}

/**
 * A custodian's list of `bars` bars (CSV, docs/api.md "Vault inventory") POSTed through the
 * real route, `POST /api/admin/vault/bar-lists?vault=&asOf=`, twice: first every bar new,
 * then the same bars as a later snapshot (all unchanged). Each is timed from the request
 * to the 201, while the bench's memory sampler watches the web (its peak resident set is
 * the kernel's VmHWM, so no peak is missed between samples). Run before the intake, so
 * the web's high-water mark is this import's, not the load's.
 */
export async function runBarListImport(p: RunBarListImportParameters): Promise<BarListImportResult> {
  const vault = `BENCH-IMPORT-${p.runId}`
  const csv = barListCsv({ prefix: `IMP${p.runId.toUpperCase()}X`, bars: p.bars })
  const csvBytes = Buffer.byteLength(csv)
  const webGroups: ProcessGroupsSource = () => p.groups().filter((g) => g.name === 'web')
  const webPid = () => webGroups()[0]?.roots[0] ?? 0
  const runs: BarListImportRun[] = []
  for (const kind of ['new', 'snapshot'] as const) {
    const asOf = new Date().toISOString()
    const query = { vault, asOf }
    const api = apiClientOf(p.session)
    // the dev custodian signs the list's typed data as a custodian's tool would, before the timed request
    const typed = await api.POST('/api/vault/bar-lists/typed-data', { params: { query }, body: csv, ...asCsv })
    if (typed.response.status !== 200)
      throw new Error(`bar-list typed data answered ${typed.response.status}: ${JSON.stringify(typed.error)}`)
    // the document gives this answer no schema: the typed data as lib/web/signing/toViemTypedData.ts reads it
    const signature = await devKey('custodian').signTypedData(toViemTypedData(typed.data as unknown as TypedDataJson))
    const webRssBeforeKb = readProcMemory(webPid())?.rssKb ?? 0
    const sampler = startMemorySampler({ groups: webGroups, intervalMs: 100 })
    const t0 = performance.now()
    const res = await api.POST('/api/admin/vault/bar-lists', {
      params: { query },
      body: csv,
      ...asCsv,
      headers: { ...asCsv.headers, 'custodian-signature': signature },
    })
    // the document gives the 201 no schema: the counts docs/api.md "Bar lists" names
    const answer = (res.data ?? res.error) as unknown as { added?: number; unchanged?: number }
    const seconds = (performance.now() - t0) / 1000
    const web = sampler.stop().web
    if (res.response.status !== 201)
      throw new Error(
        `bar-list import (${kind}) answered ${res.response.status}: ${JSON.stringify(answer).slice(0, 500)}`,
      )
    const run: BarListImportRun = {
      kind,
      seconds,
      status: res.response.status,
      added: answer.added ?? 0,
      unchanged: answer.unchanged ?? 0,
      webRssBeforeKb,
      webHwmAfterKb: readProcMemory(webPid())?.hwmKb ?? web?.peakProcessKb ?? 0,
      webPeakPssKb: web?.peakTreeKb ?? 0,
    }
    runs.push(run)
    p.log(
      `bar-list import (${kind}) of ${p.bars} bars (${(csvBytes / 2 ** 20).toFixed(1)} MiB CSV): ${seconds.toFixed(2)} s, ` +
        `${run.added} added, ${run.unchanged} unchanged; web RSS ${Math.round(webRssBeforeKb / 1024)} MB before, peak ${Math.round(run.webHwmAfterKb / 1024)} MB`,
    )
  }
  return { bars: p.bars, csvBytes, vault, runs }
}

const REFINERS = ['Valcambi SA', 'PAMP SA', 'Argor-Heraeus SA', 'Metalor Technologies SA', 'Rand Refinery (Pty) Ltd']
const FINENESS = ['999.9', '999.5', '995.0']

/** A bar list as CSV (serial,refiner,year,grossOz,fineness), deterministic for a prefix. */
export function barListCsv({ prefix, bars }: { prefix: string; bars: number }): string {
  const lines = ['serial,refiner,year,grossOz,fineness']
  for (let i = 0; i < bars; i++) {
    const gross = `${350 + ((i * 7919) % 80)}.${String((i * 104_729) % 1000).padStart(3, '0')}`
    lines.push(
      `${prefix}${String(i).padStart(6, '0')},${REFINERS[i % REFINERS.length]},${2015 + (i % 10)},${gross},${FINENESS[i % FINENESS.length]}`,
    )
  }
  return `${lines.join('\n')}\n`
}
