/**
 * Provider faults counted in this process: each KMS throttle, each transport
 * retry of the chain client. Counting is a map increment (no I/O on the hot path); the
 * worker flushes the deltas to the database now and then (worker/ops/flushFaultCounts.ts) so
 * the admin metrics can show them across processes and restarts.
 */
export type FaultName =
  /** a ThrottlingException answer from KMS (each one, the SDK's own retries included) */
  | 'kms_throttled'
  /** a Sign tried again by our own loop after the SDK gave up on a throttle */
  | 'kms_sign_retry'
  /** a JSON-RPC request tried again by the chain client (429, 5xx, timeout, reset) */
  | 'rpc_retry'
  /** an HTTP 429 from the RPC provider */
  | 'rpc_rate_limited'

export const FAULT_NAMES: readonly FaultName[] = ['kms_throttled', 'kms_sign_retry', 'rpc_retry', 'rpc_rate_limited']

const counts = new Map<FaultName, number>()

export function countFault(name: FaultName, n = 1): void {
  counts.set(name, (counts.get(name) ?? 0) + n)
}

/** The counts since the last call, then zero again (a flush that fails puts them back with restoreFaultCounts). */
export function takeFaultCounts(): Partial<Record<FaultName, number>> {
  const taken = Object.fromEntries(counts)
  counts.clear()
  return taken
}

export function restoreFaultCounts(taken: Partial<Record<FaultName, number>>): void {
  for (const [name, n] of Object.entries(taken) as [FaultName, number][]) countFault(name, n)
}
