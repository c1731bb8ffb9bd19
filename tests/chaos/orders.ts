import { type Address, getAddress } from 'viem'
import type { Db } from '@/db/client'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { ozToWei } from '@/lib/money/ozToWei'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createRng } from '@/tests/helpers/createRng'
import { allowRecipients } from '@/tests/helpers/recipients'
import { type Api, type ApiRole, ApiTimeoutError } from './api'

export type PlannedOrder = {
  index: number
  /** the Idempotency-Key: a retried request can never create a second order */
  key: string
  body: MintRequestInput
  to: Address
  amountWei: bigint
}

export type PlanOrdersParameters = {
  runId: string
  count: number
  recipients: readonly Address[]
  seed: number
  first?: number
}

const FINENESS = ['999.9', '999.99', '999.5', '995.0', '916.7', '900.0']

/** Valid mint requests, 1 to 3 bars each, every bar serial unique to the run. */
export function planOrders({ runId, count, recipients, seed, first = 0 }: PlanOrdersParameters): PlannedOrder[] {
  const rng = createRng(seed)
  const out: PlannedOrder[] = []
  for (let i = first; i < first + count; i++) {
    const bars = Array.from({ length: 1 + Math.floor(rng() * 3) }, (_, j) => ({
      serial: `${runId}-${i}-${j}`.toUpperCase(),
      refiner: rng() < 0.5 ? 'Valcambi SA' : 'PAMP SA',
      grossOz: formatDecimal(350_000n + BigInt(Math.floor(rng() * 80_000)), { decimals: 3, minFraction: 3 }),
      fineness: FINENESS[Math.floor(rng() * FINENESS.length)],
      year: 2000 + Math.floor(rng() * 25),
    }))
    const to = getAddress(recipients[i % recipients.length])
    const body = buildMintRequest({ bars, to, vault: 'LDN-CHAOS', receiptRef: `VR-${runId}-${i}` })
    out.push({ index: i, key: `chaos-${runId}-${i}`, body, to, amountWei: ozToWei(body.amount) })
  }
  return out
}

/**
 * Puts the planned orders' bars on their vault's bar list (one import) and their
 * recipients on the allowlist, so the intake accepts them: bars come from the
 * custodian's list, never from the request, and mints go only to allowed recipients.
 */
export async function stockPlannedOrders(db: Db, orders: readonly PlannedOrder[]): Promise<void> {
  if (orders.length === 0) return
  await stockBarsOf(
    db,
    orders.map((o) => o.body),
  )
  await allowRecipients(
    db,
    orders.map((o) => o.to),
  )
}

export type SubmitOutcome = {
  order: PlannedOrder
  orderId: string | null
  /** HTTP statuses seen, in order (0 = network error, -1 = no answer within the timeout) */
  statuses: number[]
  /** the slowest answer, ms */
  maxLatencyMs: number
  /** answers slower than 2 s: status, ms, when the request started (epoch ms) */
  slow: { status: number; ms: number; at: number }[]
  /** requests that got no answer within their timeout */
  hangs: number
  /** a refusal that is not a transient failure (a 4xx), with its body */
  refused: string | null
}

export type SubmitOrderParameters = {
  as?: ApiRole
  /** stop retrying after this long */
  giveUpAfterMs?: number
  requestTimeoutMs?: number
}

/**
 * POSTs one order until it is accepted: a 5xx, a refused connection or a timeout is
 * retried with the same Idempotency-Key and body (the answer may have been lost after a
 * commit); a 4xx is final. Returns what the client saw.
 */
export async function submitOrder(
  api: Api,
  order: PlannedOrder,
  p: SubmitOrderParameters = {},
): Promise<SubmitOutcome> {
  const giveUpAt = Date.now() + (p.giveUpAfterMs ?? 120_000)
  const outcome: SubmitOutcome = {
    order,
    orderId: null,
    statuses: [],
    maxLatencyMs: 0,
    slow: [],
    hangs: 0,
    refused: null,
  }
  for (let attempt = 0; ; attempt++) {
    const t0 = Date.now()
    let status: number
    let text = ''
    try {
      const res = await api({
        method: 'POST',
        path: '/api/gold/mint',
        as: p.as ?? 'staff',
        headers: { 'content-type': 'application/json', 'idempotency-key': order.key },
        body: JSON.stringify(order.body),
        timeoutMs: p.requestTimeoutMs ?? 15_000,
      })
      status = res.status
      text = await res.text()
    } catch (error) {
      status = error instanceof ApiTimeoutError ? -1 : 0
      if (status === -1) outcome.hangs++
      text = error instanceof Error ? error.message : String(error)
    }
    const ms = Date.now() - t0
    outcome.maxLatencyMs = Math.max(outcome.maxLatencyMs, ms)
    if (ms > 2_000) outcome.slow.push({ status, ms, at: t0 })
    outcome.statuses.push(status)
    if (status === 202) {
      const body = JSON.parse(text) as { orderId: string }
      outcome.orderId = body.orderId
      return outcome
    }
    if (status >= 400 && status < 500) {
      outcome.refused = `${status} ${text.slice(0, 300)}`
      return outcome
    }
    if (Date.now() > giveUpAt) {
      outcome.refused = `gave up after ${attempt + 1} attempts, last ${status} ${text.slice(0, 300)}`
      return outcome
    }
    await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * (attempt + 1))))
  }
}

export type SubmitAllParameters = SubmitOrderParameters & {
  orders: readonly PlannedOrder[]
  /** requests in flight at once */
  concurrency: number
  /** at most this many new orders per second (spreads the load over the faults) */
  perSecond?: number
  onAccepted?: (o: SubmitOutcome) => void
}

/** Submits every order with bounded concurrency and pacing; resolves when all are accepted or refused. */
export async function submitAll(api: Api, p: SubmitAllParameters): Promise<SubmitOutcome[]> {
  const results: SubmitOutcome[] = new Array(p.orders.length)
  let next = 0
  const started = Date.now()
  const lane = async () => {
    for (;;) {
      const i = next++
      if (i >= p.orders.length) return
      if (p.perSecond) {
        const due = started + (i * 1000) / p.perSecond
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()))
      }
      results[i] = await submitOrder(api, p.orders[i], p)
      p.onAccepted?.(results[i])
    }
  }
  await Promise.all(Array.from({ length: p.concurrency }, lane))
  return results
}

/** Totals over submit outcomes, for the report. */
export function tallySubmits(outcomes: readonly SubmitOutcome[]) {
  const byStatus: Record<string, number> = {}
  for (const o of outcomes) for (const s of o.statuses) byStatus[String(s)] = (byStatus[String(s)] ?? 0) + 1
  return {
    orders: outcomes.length,
    accepted: outcomes.filter((o) => o.orderId).length,
    requests: outcomes.reduce((n, o) => n + o.statuses.length, 0),
    retried: outcomes.filter((o) => o.statuses.length > 1).length,
    refused: outcomes.filter((o) => o.refused).map((o) => `${o.order.key}: ${o.refused}`),
    hangs: outcomes.reduce((n, o) => n + o.hangs, 0),
    maxLatencyMs: Math.max(0, ...outcomes.map((o) => o.maxLatencyMs)),
    slow: outcomes.flatMap((o) => o.slow),
    byStatus,
  }
}
