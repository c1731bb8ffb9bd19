import { type Address, getAddress, type HDAccount, type Hex } from 'viem'
import type { Db } from '@/db/client'
import { mintIntentTypes } from '@/lib/chain/typedData'
import { devKey } from '@/lib/keys/devKeys'
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
  /**
   * who signs each accepted order's intent through the API (GET .../approval, POST .../approve),
   * with the dev approver key bound to that user (index 10); none: the orders stay awaiting approval
   */
  approveAs?: ApiRole
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
      const body = JSON.parse(text) as { orderId: string; status: string }
      outcome.orderId = body.orderId
      if (body.status === 'awaiting_approval' && p.approveAs) {
        const refused = await approveOrder(api, body.orderId, { ...p, as: p.approveAs, giveUpAt })
        if (refused) outcome.refused = refused
      }
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

/** GET /api/gold/mint/{orderId}/approval's typedData: the order's MintIntent, numbers as decimal strings. */
export type ApiIntentTypedData = {
  domain: { name: string; version: string; chainId: string; verifyingContract: Address }
  message: { orderId: `0x${string}`; to: Address; amount: string; barsHash: `0x${string}`; deadline: string }
}

/** `key`'s EIP-712 signature of the intent the approval route answered, as a wallet makes it (dev approver 10). */
export function signApiIntent(typedData: ApiIntentTypedData, key: HDAccount = devKey('approver')): Promise<Hex> {
  const m = typedData.message
  return key.signTypedData({
    domain: { ...typedData.domain, chainId: Number(typedData.domain.chainId) },
    types: mintIntentTypes,
    primaryType: 'MintIntent',
    message: { ...m, amount: BigInt(m.amount), deadline: BigInt(m.deadline) },
  })
}

/**
 * Signs the order's intent as an approver's wallet would (the dev approver key, index 10) and
 * posts it, retrying a 5xx or a lost answer; a 409 already_signed or not_awaiting_approval
 * after a retry means the signature counted. Returns why it gave up, or null.
 */
async function approveOrder(
  api: Api,
  orderId: string,
  p: { as: ApiRole; giveUpAt: number; requestTimeoutMs?: number },
): Promise<string | null> {
  const key = devKey('approver')
  for (let attempt = 0; ; attempt++) {
    let last = ''
    try {
      const got = await api({
        method: 'GET',
        path: `/api/gold/mint/${orderId}/approval`,
        as: p.as,
        timeoutMs: p.requestTimeoutMs ?? 15_000,
      })
      if (got.status === 200) {
        const { typedData } = (await got.json()) as { typedData: ApiIntentTypedData }
        const signature = await signApiIntent(typedData, key)
        const res = await api({
          method: 'POST',
          path: `/api/gold/mint/${orderId}/approve`,
          as: p.as,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signature }),
          timeoutMs: p.requestTimeoutMs ?? 15_000,
        })
        const text = await res.text()
        if (res.status === 200) return null
        if (res.status === 409 && attempt > 0 && /already_signed|not_awaiting_approval/.test(text)) return null
        if (res.status >= 400 && res.status < 500) return `approve: ${res.status} ${text.slice(0, 300)}`
        last = `${res.status} ${text.slice(0, 300)}`
      } else if (got.status >= 400 && got.status < 500) {
        return `approval: ${got.status} ${(await got.text()).slice(0, 300)}`
      } else last = String(got.status)
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    if (Date.now() > p.giveUpAt) return `approve gave up after ${attempt + 1} attempts, last ${last}`
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
