import type { ApiPostAnswer } from '../http/buildApiPost'
import type { JsonPoster } from '../http/createJsonPoster'
import type { MintBodies } from '../intake/createMintBodies'
import type { MINT_PATH } from '../intake/runIntake'
import { nowMs, sleep } from '../system/clock'

export type SubmittedOrder = {
  orderId: string
  sentAt: number
  answeredAt: number
  /** the approval that moved it on was answered (its mint_send job added); answeredAt when not approved here */
  approvedAt: number
}

export type SubmitOrdersParameters = {
  poster: JsonPoster
  bodies: MintBodies
  count: number
  /**
   * burst: `concurrency` clients send back to back (the whole batch as fast as the API
   * takes it); paced: one request every 1/rate s whatever the answers (open loop)
   */
  mode: { kind: 'burst'; concurrency: number } | { kind: 'paced'; perSecond: number }
  /**
   * approves each order awaiting approval right after its 202, through the approve endpoint (createOrderApprover);
   * without it the orders stay awaiting approval (a drain approves them as a step of its own)
   */
  approve?: (orderId: string) => Promise<void>
}

export type SubmitOrdersReturnType = {
  orders: SubmittedOrder[]
  refused: number
  firstSentAt: number
  /** the last answer (of an approval when approving) */
  lastAnsweredAt: number
}

/**
 * N mint requests through POST /api/gold/mint (every order waits for approvers' signatures at intake), each
 * approved right after its 202 when `approve` is given, each order's send time kept for its latency.
 */
export async function submitOrders(p: SubmitOrdersParameters): Promise<SubmitOrdersReturnType> {
  const orders: SubmittedOrder[] = []
  let refused = 0
  const one = async () => {
    const res = await p.poster.post(p.bodies.next().post)
    if (res.status !== 202) {
      refused++
      return
    }
    const { orderId, status } = JSON.parse(res.body) as ApiPostAnswer<typeof MINT_PATH> // the 202's body
    const approving = status === 'awaiting_approval' && p.approve !== undefined
    if (approving) await p.approve?.(orderId)
    orders.push({ orderId, sentAt: res.sentAt, answeredAt: res.doneAt, approvedAt: approving ? nowMs() : res.doneAt })
  }
  const firstSentAt = nowMs()
  if (p.mode.kind === 'burst') {
    let next = 0
    await Promise.all(
      Array.from({ length: p.mode.concurrency }, async () => {
        while (next < p.count) {
          next++
          await one()
        }
      }),
    )
  } else {
    const gapMs = 1000 / p.mode.perSecond
    const inFlight: Promise<void>[] = []
    for (let i = 0; i < p.count; i++) {
      const due = firstSentAt + i * gapMs
      const wait = due - nowMs()
      if (wait > 0) await sleep(wait)
      inFlight.push(one())
    }
    await Promise.all(inFlight)
  }
  const lastAnsweredAt = orders.reduce((a, o) => Math.max(a, o.approvedAt), firstSentAt)
  return { orders, refused, firstSentAt, lastAnsweredAt }
}
