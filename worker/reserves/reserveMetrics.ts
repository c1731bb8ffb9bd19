import { formatOz } from '@/lib/reserves/formatOz'
import type { ReserveFigures } from '@/lib/reserves/ReserveFigures'
import { QUEUE_METRICS_NAMESPACE } from '@/worker/ops/emitQueueMetrics'

/**
 * The structured log line of each reconciliation check (the worker's reserve_check),
 * like the queue_metrics line (worker/ops/emitQueueMetrics.ts): the worker's log group has
 * a metric filter `{ $.msg = "reserve_metrics" }` with the value `$.shortfallOz` in the
 * namespace `Mintdesk`, and an alarm on it above 0 (deploy/lib/addReserveAlarm.ts
 * imports these names, so the two cannot drift); `$.signingStopped` the same way for the stop
 * switch (deploy/lib/addSigningStoppedAlarm.ts).
 */
export const RESERVE_METRICS_MESSAGE = 'reserve_metrics'
export const RESERVE_METRICS_NAMESPACE = QUEUE_METRICS_NAMESPACE
export const RESERVE_METRICS = {
  shortfallOz: { field: 'shortfallOz', metricName: 'ReserveShortfallOz', unit: 'None' },
  /** 1 while the stop switch is on (docs/decisions/052-stop-switch.md), else 0 */
  signingStopped: { field: 'signingStopped', metricName: 'SigningStopped', unit: 'None' },
} as const satisfies Record<string, { field: keyof ReserveMetricsFields; metricName: string; unit: string }>

/** The line's fields: the numbers CloudWatch reads, and the exact figures as strings beside them. */
export type ReserveMetricsFields = {
  /** the shortfall in oz as a JSON number (a metric value); exact in `shortfall` */
  shortfallOz: number
  /** 1 while the stop switch is on, else 0 (a metric value) */
  signingStopped: 0 | 1
  status: ReserveFigures['status']
  blockNumber: string
  totalSupply: string
  backing: string
  inFlight: string
  available: string
  missing: string
  shortfall: string
}

/** The fields of the reserve_metrics line for one check, with whether signing is stopped as it ran. */
export function reserveMetricsFields(f: ReserveFigures, p: { signingStopped: boolean }): ReserveMetricsFields {
  const shortfall = formatOz(f.shortfallWei)
  return {
    shortfallOz: Number(shortfall),
    signingStopped: p.signingStopped ? 1 : 0,
    status: f.status,
    blockNumber: f.blockNumber.toString(),
    totalSupply: formatOz(f.totalSupplyWei),
    backing: formatOz(f.backingWei),
    inFlight: formatOz(f.inFlightWei),
    available: formatOz(f.availableWei),
    missing: formatOz(f.missingWei),
    shortfall,
  }
}
