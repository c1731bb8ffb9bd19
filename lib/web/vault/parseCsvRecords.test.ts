import { describe, expect, it } from 'vitest'
import { parseCsvRecords } from './parseCsvRecords'

describe('parseCsvRecords', () => {
  it('reads fields, line numbers, CRLF, a BOM and skips blank lines', () => {
    const text = '\ufeffserial,refiner\r\nAB1, Valcambi SA \r\n\r\nAB2,PAMP SA\n'
    expect(parseCsvRecords(text)).toEqual({
      records: [
        { line: 1, fields: ['serial', 'refiner'] },
        { line: 2, fields: ['AB1', 'Valcambi SA'] },
        { line: 4, fields: ['AB2', 'PAMP SA'] },
      ],
      problems: [],
    })
  })

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const { records, problems } = parseCsvRecords('a,b\n"X, ""1""","multi\nline"\nlast,one')
    expect(problems).toEqual([])
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['X, "1"', 'multi\nline'] },
      { line: 4, fields: ['last', 'one'] },
    ])
  })

  it('keeps empty fields', () => {
    expect(parseCsvRecords('a,,c\n,,\n').records).toEqual([
      { line: 1, fields: ['a', '', 'c'] },
      { line: 2, fields: ['', '', ''] },
    ])
  })

  it('reports an unclosed quote', () => {
    expect(parseCsvRecords('a,"open\n').problems).toEqual([{ line: 1, message: 'a quoted field is never closed' }])
  })
})
