import { describe, expect, it } from 'vitest'
import type { DrainResult } from '../pipeline/runDrain'
import type { CpuUsage } from '../system/startCpuMeter'
import { drainCpuPerOrder } from './drainCpu'

const usage = (wallMs: number, byGroup: Record<string, number>): CpuUsage => ({
  wallMs,
  cores: 2,
  byGroup,
  machineBusy: 1,
  others: 0,
})

describe('drainCpuPerOrder', () => {
  it("adds the approvals' CPU (the web's signature checks) to the drain's, per confirmed order", () => {
    const drain = {
      byStatus: { confirmed: 10 },
      cpu: usage(1000, { worker: 0.5, web: 0.01 }),
      approval: { seconds: 2, perSecond: 5, cpu: usage(2000, { web: 0.25, postgres: 0.1 }) },
    } as unknown as DrainResult
    const cpu = drainCpuPerOrder(drain, ['worker', 'web', 'postgres'])
    expect(cpu.byGroup).toEqual({ worker: 50, web: 1 + 50, postgres: 20 })
    expect(cpu.total).toBe(121)
  })

  it('counts the drain alone when it has no approvals', () => {
    const drain = { byStatus: { confirmed: 4 }, cpu: usage(1000, { worker: 0.2 }) } as unknown as DrainResult
    expect(drainCpuPerOrder(drain, ['worker']).byGroup).toEqual({ worker: 50 })
  })
})
