import { type Summary, summarize } from '../system/percentiles'
import type { OrderTimings } from './listOrderTimings'

export type Stage = { name: string; summary: Summary }

export type OrderLatencies = {
  /**
   * commit of the approval that added its job -> eth_sendRawTransaction answered (the
   * issue's "committed -> broadcast")
   */
  committedToBroadcast: Summary
  /** broadcast -> the confirmed event */
  broadcastToConfirmed: Summary
  /** the approval's commit -> confirmed */
  committedToConfirmed: Summary
  /** commit of the approval -> the order's first event after it (a worker took it: queue pickup) */
  pickup: Summary
  /** each step of an order, in order (a step whose events this pipeline does not write is left out) */
  stages: Stage[]
}

/** The per-order latencies of a batch, from the timeline's events (and each request's send time when known). */
export function orderLatencies(timings: readonly OrderTimings[], sentAt?: ReadonlyMap<string, number>): OrderLatencies {
  const d = (pick: (t: OrderTimings) => [number | null | undefined, number | null | undefined]) =>
    summarize(
      timings.flatMap((t) => {
        const [a, b] = pick(t)
        return a != null && b != null ? [b - a] : []
      }),
    )
  const stages: Stage[] = [
    ...(sentAt
      ? [
          {
            name: 'request sent -> approval transaction began (the intake, then the approver signs and posts it)',
            summary: d((t) => [sentAt.get(t.orderId), t.enqueued]),
          },
        ]
      : []),
    {
      name: 'approval transaction (signature checked, order pending, job) -> committed',
      summary: d((t) => [t.enqueued, t.committed]),
    },
    {
      name: 'committed -> taken by a worker (its first event after the approval: queue pickup)',
      summary: d((t) => [t.committed, t.firstWork]),
    },
    {
      name: 'taken -> signature stored (approvals and bar list verified, simulate, nonce, KMS Sign)',
      summary: d((t) => [t.firstWork, t.signed]),
    },
    { name: 'signature stored -> its transaction committed', summary: d((t) => [t.signed, t.signCommitted]) },
    {
      name: 'signing committed -> broadcast recorded (eth_sendRawTransaction)',
      summary: d((t) => [t.signCommitted, t.broadcast]),
    },
    { name: "broadcast -> confirmed (the block, the confirmer's poll)", summary: d((t) => [t.broadcast, t.confirmed]) },
  ].filter((s) => s.summary.n > 0)
  return {
    committedToBroadcast: d((t) => [t.committed, t.broadcast]),
    broadcastToConfirmed: d((t) => [t.broadcast, t.confirmed]),
    committedToConfirmed: d((t) => [t.committed, t.confirmed]),
    pickup: d((t) => [t.committed, t.firstWork]),
    stages,
  }
}
