import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { Address } from 'viem'
import * as schema from '../../db/schema'
import type { MintRequestInput } from '../../lib/mint/mintRequestSchema'
import { importBarList } from '../../lib/web/vault/importBarList'
import { parseBarList } from '../../lib/web/vault/parseBarList'
import { devCustodianSignature } from '../../scripts/stack/devCustodianSignature'
import { buildMintRequest } from '../../tests/helpers/buildMintRequest'
import { allowRecipients } from '../../tests/helpers/recipients'
import { type ApiPost, buildApiPost } from '../http/buildApiPost'
import { BENCH_LIST_BARS } from '../vault/benchListBars'
import { MINT_PATH } from './runIntake'

/** a mint request, and the POST /api/gold/mint that carries it (typed by the contract: buildApiPost) */
export type MintBody = { request: MintRequestInput; post: ApiPost }

export type MintBodies = {
  next: () => MintBody
  count: () => number
  /** how many bodies there are bars for (stockMintBodies puts them on bar lists) */
  capacity: number
  runId: string
  /** the recipients, round-robin (stockMintBodies puts them on the allowlist) */
  recipients: readonly Address[]
}

/** bars are on bench bar lists of BENCH_LIST_BARS bars: orders of two bars */
const ORDERS_PER_VAULT = BENCH_LIST_BARS / 2

/** The vault of the i-th body: bench vaults are the run's own (`BENCH-<runId>-<k>`). */
function vaultOf(runId: string, i: number): string {
  return `BENCH-${runId}-${Math.floor(i / ORDERS_PER_VAULT)}`
}

/**
 * Valid mint requests whose bars are never used twice: two Good Delivery bars per order
 * (as the API's example), serials `<runId>-<n>-A` / `-B`, so every request of a run
 * (API, raw SQL, pipeline) reserves bars of its own and none is refused as already used.
 * The bars must be on the vaults' bar lists and the recipients on the allowlist first
 * (stockMintBodies): bars come from the custodian's list, never from the request. Recipients are used round-robin, as
 * the chain baselines use them. Past `capacity` bodies, next() throws.
 */
export function createMintBodies({
  runId,
  recipients,
  capacity = 200_000,
}: {
  runId: string
  recipients: readonly Address[]
  capacity?: number
}): MintBodies {
  const template = buildMintRequest({ bars: [{ serial: 'A' }, { serial: 'B' }], receiptRef: `VR-BENCH-${runId}` })
  let n = 0
  return {
    next: () => {
      const i = n++
      if (i >= capacity) throw new Error(`out of bench bars: ${capacity} bodies were stocked (raise the capacity)`)
      const request: MintRequestInput = {
        ...template,
        to: recipients[i % recipients.length] as string,
        vaultProof: {
          ...template.vaultProof,
          vault: vaultOf(runId, i),
          bars: template.vaultProof.bars.map((bar, b) => ({ ...bar, serial: `${runId}-${i}-${b === 0 ? 'A' : 'B'}` })),
        },
      }
      return { request, post: buildApiPost(MINT_PATH, { body: request }) }
    },
    count: () => n,
    capacity,
    runId,
    recipients,
  }
}

/**
 * Imports the bar lists of every body's bars (one list per bench
 * vault, through importBarList). Returns the time it took, ms.
 */
export async function stockMintBodies(
  sql: postgres.Sql,
  bodies: MintBodies,
  log: (line: string) => void = () => {},
): Promise<number> {
  const t0 = performance.now()
  const db = drizzle(sql, { schema })
  const template = buildMintRequest({ bars: [{ serial: 'A' }, { serial: 'B' }] }).vaultProof.bars
  for (let from = 0; from < bodies.capacity; from += ORDERS_PER_VAULT) {
    const vault = vaultOf(bodies.runId, from)
    const bars = []
    for (let i = from; i < Math.min(bodies.capacity, from + ORDERS_PER_VAULT); i++) {
      for (const [b, bar] of template.entries()) {
        bars.push({
          serial: `${bodies.runId}-${i}-${b === 0 ? 'A' : 'B'}`,
          refiner: bar.refiner,
          year: bar.year,
          grossOz: bar.grossOz,
          fineness: bar.fineness,
        })
      }
    }
    const list = parseBarList({ format: 'value', value: { vault, asOf: new Date().toISOString(), bars } })
    const t1 = performance.now()
    await importBarList(db, {
      list,
      actor: null,
      metadata: { source: 'npm run bench', devData: true },
      custodian: await devCustodianSignature(list),
    })
    log(`bench bar list ${vault}: ${bars.length} bars imported in ${Math.round(performance.now() - t1)} ms`)
  }
  await allowRecipients(db, bodies.recipients) // the intake refuses a recipient off the allowlist
  return performance.now() - t0
}
