import { describe, expect, it } from 'vitest'
import { readPreviousCpuPerOrder } from './readPreviousCpuPerOrder'

const REPORT = `# Benchmarks

- **Date:** 2026-12-01 21:26 UTC
- **Command:** \`npm run bench\`

| target | measured | result |
| ------ | -------- | ------ |
| Drain of 1000, 1 signer, 1 worker: >= 0.5x the node's raw limit | 113/s vs 332/s = 0.34 | **MISS** |
| CPU per confirmed order, drain, 1 signer: <= 15 ms (all processes) | 13.7 ms (worker 8.0, postgres 2.5) | PASS |
| CPU per confirmed order, drain, 4 signers: <= 15 ms (all processes) | 14.9 ms (worker 9.1, postgres 2.6) | PASS |
| CPU per confirmed order with the email it causes (reported) | 14.8 ms = 13.7 (mint) + 1.2 | report |
`

describe('readPreviousCpuPerOrder', () => {
  it("reads the date and the fewest signers' drain CPU per order of a report", () => {
    expect(readPreviousCpuPerOrder(REPORT)).toEqual({
      date: '2026-12-01 21:26 UTC',
      target: 'CPU per confirmed order, drain, 1 signer: <= 15 ms (all processes)',
      measured: '13.7 ms (worker 8.0, postgres 2.5)',
      ms: 13.7,
    })
  })

  it('gives null for a text with no such row or no date, or a figure that is not a number', () => {
    expect(readPreviousCpuPerOrder('')).toBeNull()
    expect(readPreviousCpuPerOrder(REPORT.replace(/^- \*\*Date:\*\*.*$/mu, ''))).toBeNull()
    expect(readPreviousCpuPerOrder(REPORT.replaceAll('CPU per confirmed order, drain', 'CPU'))).toBeNull()
    expect(readPreviousCpuPerOrder(REPORT.replace('13.7 ms (worker', 'n/a (worker'))).toBeNull()
  })
})
