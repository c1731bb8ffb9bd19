import type { DrainResult } from '../pipeline/runDrain'
import { cpuMsPer } from './format'

/** The processes of the stack whose CPU a confirmed order costs (the bench's own load generator is not one). */
export const STACK_GROUPS = ['worker', 'postgres', 'anvil', 'kms', 'web'] as const

/** The SQS row's stack: the same processes and the embedded SQS endpoint (its own process in the bench). */
export const SQS_STACK_GROUPS = [...STACK_GROUPS, 'sqs'] as const

/**
 * CPU ms per confirmed order of each stack process over a drain and its approvals (the web's signature checks, when
 * the drain has them), and their sum.
 */
export function drainCpuPerOrder(
  d: DrainResult,
  groups: readonly string[] = STACK_GROUPS,
): { total: number; byGroup: Record<string, number> } {
  const n = d.byStatus.confirmed ?? 0
  const approval = d.approval?.cpu
  const byGroup = Object.fromEntries(
    groups.map((g) => [g, cpuMsPer(d.cpu, g, n) + (approval ? cpuMsPer(approval, g, n) : 0)]),
  )
  return { total: Object.values(byGroup).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0), byGroup }
}
