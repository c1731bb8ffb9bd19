import type { BadgeTone } from '@/components/ui/Badge'

/**
 * The thresholds that colour the dashboard, in one place, pure and tested. They are a
 * desk's defaults, not alerts: Prometheus rules on /api/metrics do the paging.
 */

export type Health = { tone: BadgeTone; label: string }

/** Oldest job ready to run but not started: seconds are normal, minutes mean too few workers or a stuck queue. */
export function oldestQueuedHealth(ageSeconds: number | null): Health {
  if (ageSeconds === null) return { tone: 'success', label: 'nothing waiting' }
  if (ageSeconds < 30) return { tone: 'success', label: 'flowing' }
  if (ageSeconds < 120) return { tone: 'warning', label: 'slow' }
  return { tone: 'danger', label: 'stuck' }
}

/** Failed share of attempts: a task that keeps failing is usually a bug, not bad luck. */
export function failureRateHealth(rate: number | null): Health {
  if (rate === null) return { tone: 'neutral', label: 'no attempts' }
  if (rate === 0) return { tone: 'success', label: 'ok' }
  if (rate < 0.05) return { tone: 'info', label: 'some failures' }
  if (rate < 0.25) return { tone: 'warning', label: 'failing' }
  return { tone: 'danger', label: 'failing often' }
}

/**
 * p95 run time against the heartbeat takeover limit: a job that runs near the limit
 * risks being taken over (and run twice) if its worker stalls.
 */
export function runTimeHealth(p95Ms: number | null, limitMs: number): Health & { ratio: number | null } {
  if (p95Ms === null || limitMs <= 0) return { tone: 'neutral', label: 'no runs', ratio: null }
  const ratio = p95Ms / limitMs
  if (ratio >= 0.8) return { tone: 'danger', label: 'near the limit', ratio }
  if (ratio >= 0.5) return { tone: 'warning', label: 'half the limit', ratio }
  return { tone: 'success', label: 'well under', ratio }
}

export type NonceFigures = { nextNonce: number; chainNonce: number | null; pending: number | null; inFlight: number }

/**
 * Postgres is the source of truth for nonces (next to hand out); the chain says what
 * is mined (latest) and seen (pending). Not mined = next - latest: equal to the nonces
 * in flight when all is well; more means released nonces still waiting for their gap
 * fill; a chain ahead of Postgres means something else signed with this key.
 */
export function nonceHealth({ nextNonce, chainNonce, pending, inFlight }: NonceFigures): Health {
  if (chainNonce === null || pending === null) return { tone: 'neutral', label: 'chain unavailable' }
  if (pending > nextNonce || chainNonce > nextNonce) return { tone: 'danger', label: 'chain ahead of Postgres' }
  const notMined = nextNonce - chainNonce
  if (notMined === 0) return { tone: 'success', label: 'in sync' }
  if (notMined > inFlight) return { tone: 'warning', label: `${notMined - inFlight} awaiting gap fill` }
  return { tone: 'info', label: `${notMined} in flight` }
}

export function balanceHealth(balanceWei: string | null, lowBalanceWei: bigint): Health {
  if (balanceWei === null) return { tone: 'neutral', label: 'unknown' }
  if (BigInt(balanceWei) === 0n) return { tone: 'danger', label: 'empty' }
  if (BigInt(balanceWei) < lowBalanceWei) return { tone: 'danger', label: 'low balance' }
  return { tone: 'success', label: 'ok' }
}
