import type { HistoryRouteKind } from './historyRoutes'
import type { HistoryResult } from './runHistory'

/** p95 targets of the history bench, milliseconds, by the kind of route (docs/decisions/066-a-year-of-history.md). */
export const HISTORY_TARGETS_MS: Record<HistoryRouteKind, number> = {
  /** admin lists and searches, the job page, the dashboard, the order page */
  admin: 200,
  /** GET /api/reserves: what it reads from the database, the chain's supply aside */
  reserves: 50,
  /** GET /api/reserves/lookup, the public lookup */
  lookup: 100,
}

export type HistoryTargetRow = {
  name: string
  kind: HistoryRouteKind
  p95Ms: number
  targetMs: number
  /** within the target and the answer right */
  pass: boolean
  /** why it missed, read from its plans; empty when it passed */
  why: string
}

/** Each measured route against its target: PASS when its p95 is within it and its answer was right. */
export function historyTargets(result: HistoryResult): HistoryTargetRow[] {
  return result.routes.map((r) => {
    const targetMs = HISTORY_TARGETS_MS[r.kind]
    const inTime = r.p95Ms <= targetMs
    const pass = inTime && r.answered
    return { name: r.name, kind: r.kind, p95Ms: r.p95Ms, targetMs, pass, why: pass ? '' : missReason(r, inTime) }
  })
}

const BIG_TABLES = ['job_events', 'job_records', 'mint_orders', 'audit_log', 'webhook_deliveries', 'chain_txs']

function missReason(r: HistoryResult['routes'][number], inTime: boolean): string {
  if (!r.answered) return 'the answer did not hold what the seeded data should give'
  if (inTime) return ''
  const plans = r.plans.join('\n')
  const seq = BIG_TABLES.filter((t) => new RegExp(`Seq Scan on ${t}\\b`).test(plans))
  if (seq.length > 0) return `reads ${seq.join(', ')} whole (Seq Scan)`
  const rows = [...plans.matchAll(/actual time=[0-9.]+\.\.[0-9.]+ rows=(\d+)/g)].map((m) => Number(m[1]))
  const most = rows.length > 0 ? Math.max(...rows) : 0
  return most > 0 ? `its plan handles up to ${most.toLocaleString('en-US')} rows in one node` : 'see its plan'
}
