import { describe, expect, it } from 'vitest'
import { EMPTY_SUMMARY } from '../system/percentiles'
import { renderBarListImport, renderIntakeInventoryNote } from './renderInventory'

function render(draw: (line: (s?: string) => void, table: (head: string[], rows: string[][]) => void) => void): string {
  const out: string[] = []
  const line = (s = '') => out.push(s)
  draw(line, (head, rows) => {
    line(`| ${head.join(' | ')} |`)
    for (const row of rows) line(`| ${row.join(' | ')} |`)
  })
  return out.join('\n')
}

describe('the inventory rows of the bench report', () => {
  it('compares the intake with the run before the inventory, per client count', () => {
    const latency = { ...EMPTY_SUMMARY, p50: 200, p99: 320 }
    const text = render((line, table) =>
      renderIntakeInventoryNote({ concurrencies: [32, 4], runs: [{ kind: 'api', clients: 32, result: { perSecond: 143.1, latency } }, { kind: 'sql', clients: 32, result: { perSecond: 600, latency } }], line, table }),
    )
    expect(text).toContain('Bars come from the inventory')
    expect(text).toContain('| 32 | 143 | 159 | 0.90 | 200 / 320 | 194 / 315 | 600 | 655 |')
    expect(text).toContain('| 4 | n/a | n/a | n/a | n/a | n/a | n/a | n/a |')
  })

  it('renders both imports, or says the row was not measured', () => {
    const run = { status: 201, webRssBeforeKb: 200 * 1024, webHwmAfterKb: 310 * 1024, webPeakPssKb: 290 * 1024 }
    const text = render((line, table) =>
      renderBarListImport({
        barListImport: { bars: 100_000, csvBytes: 4.5 * 2 ** 20, vault: 'V', runs: [{ ...run, kind: 'new', seconds: 4, added: 100_000, unchanged: 0 }, { ...run, kind: 'snapshot', seconds: 5, added: 0, unchanged: 100_000 }] },
        line,
        table,
      }),
    )
    expect(text).toContain('## 5. Bar-list import')
    expect(text).toContain('| new bars | 100,000 / 0 | 4.00 | 25000 | 200 MB | 310 MB | 290 MB |')
    expect(text).toContain('| snapshot of the same bars | 0 / 100,000 | 5.00 | 20000 | 200 MB | 310 MB | 290 MB |')
    expect(render((line, table) => renderBarListImport({ barListImport: undefined, line, table }))).toContain('Not measured in this run.')
  })
})
