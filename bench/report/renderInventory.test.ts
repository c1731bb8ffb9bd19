import { describe, expect, it } from 'vitest'
import { renderBarListImport } from './renderInventory'

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
  it('renders both imports, or says the row was not measured', () => {
    const run = { status: 201, webRssBeforeKb: 200 * 1024, webHwmAfterKb: 310 * 1024, webPeakPssKb: 290 * 1024 }
    const text = render((line, table) =>
      renderBarListImport({
        barListImport: {
          bars: 100_000,
          csvBytes: 4.5 * 2 ** 20,
          vault: 'V',
          runs: [
            { ...run, kind: 'new', seconds: 4, added: 100_000, unchanged: 0 },
            { ...run, kind: 'snapshot', seconds: 5, added: 0, unchanged: 100_000 },
          ],
        },
        line,
        table,
      }),
    )
    expect(text).toContain('## 5. Bar-list import')
    expect(text).toContain('| new bars | 100,000 / 0 | 4.00 | 25000 | 200 MB | 310 MB | 290 MB |')
    expect(text).toContain('| snapshot of the same bars | 0 / 100,000 | 5.00 | 20000 | 200 MB | 310 MB | 290 MB |')
    expect(render((line, table) => renderBarListImport({ barListImport: undefined, line, table }))).toContain(
      'Not measured in this run.',
    )
  })
})
