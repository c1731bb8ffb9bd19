import type { DrainResult } from '../pipeline/runDrain'
import type { CpuUsage } from '../system/startCpuMeter'
import { cpuMsPer } from './format'

/** The processes of the stack whose CPU a confirmed order costs (the bench's own load generator is not one). */
export const STACK_GROUPS = ['worker', 'postgres', 'anvil', 'kms', 'web'] as const

/** The SQS row's stack: the same processes and the embedded SQS endpoint (its own process in the bench). */
export const SQS_STACK_GROUPS = [...STACK_GROUPS, 'sqs'] as const

/**
 * CPU ms per confirmed order of each stack process over a drain and its approvals (the web's signature checks, when
 * the drain has them), and their sum.
 */
export function drainCpuPerOrder(d: DrainResult, groups: readonly string[] = STACK_GROUPS): CpuPerOperation {
  return cpuPerOperation({ cpu: d.cpu, approval: d.approval?.cpu, count: d.byStatus.confirmed ?? 0, groups })
}

export type CpuPerOperation = { total: number; byGroup: Record<string, number> }

/**
 * CPU ms per operation of each stack process over a drain's window and its approvals' window (when it has one), and
 * their sum: what drainCpuPerOrder gives for mints and the burn drain for burns.
 */
export function cpuPerOperation(p: {
  cpu: CpuUsage
  approval?: CpuUsage
  count: number
  groups?: readonly string[]
}): CpuPerOperation {
  const { approval, count: n } = p
  const byGroup = Object.fromEntries(
    (p.groups ?? STACK_GROUPS).map((g) => [g, cpuMsPer(p.cpu, g, n) + (approval ? cpuMsPer(approval, g, n) : 0)]),
  )
  return { total: Object.values(byGroup).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0), byGroup }
}
