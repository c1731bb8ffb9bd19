import { describe, expect, it } from 'vitest'
import { csvCell } from './csvCell'

describe('csvCell', () => {
  it('a CSV cell that a spreadsheet would run as a formula gets a quote first; one that starts with a quote too', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`)
    for (const lead of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${lead}1`)).toMatch(/^"?'/)
    expect(csvCell("'=1")).toBe("''=1")
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell(null)).toBe('')
    expect(csvCell('a,b')).toBe('"a,b"')
  })
})
