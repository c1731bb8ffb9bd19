import { describe, expect, it } from 'vitest'
import { type CsvItem, createCsvReader } from './createCsvReader'

/** the items of `pieces` read in that split (and then one character at a time: the same items) */
function read(pieces: string | string[], maxRecordChars = 4_096): CsvItem[] {
  const run = (split: string[]) => {
    const items: CsvItem[] = []
    const reader = createCsvReader({ onItem: (item) => items.push(item), maxRecordChars })
    for (const piece of split) reader.push(piece)
    reader.end()
    return items
  }
  const split = typeof pieces === 'string' ? [pieces] : pieces
  const items = run(split)
  expect(run([...split.join('')]), 'read one character at a time').toEqual(items)
  return items
}

describe('createCsvReader', () => {
  it('reads fields, line numbers, CRLF, a BOM and skips blank lines', () => {
    expect(read('\ufeffserial,refiner\r\nAB1, Valcambi SA \r\n\r\nAB2,PAMP SA\n')).toEqual([
      { line: 1, fields: ['serial', 'refiner'] },
      { line: 2, fields: ['AB1', 'Valcambi SA'] },
      { line: 4, fields: ['AB2', 'PAMP SA'] },
    ])
  })

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(read('a,b\n"X, ""1""","multi\nline"\nlast,one')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['X, "1"', 'multi\nline'] },
      { line: 4, fields: ['last', 'one'] },
    ])
  })

  it('keeps empty fields; a lone CR ends a line too', () => {
    expect(read('a,,c\n,,\n')).toEqual([
      { line: 1, fields: ['a', '', 'c'] },
      { line: 2, fields: ['', '', ''] },
    ])
    expect(read('a\rb\r\nc,')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: ['b'] },
      { line: 3, fields: ['c', ''] },
    ])
  })

  it('reads records split anywhere across pieces', () => {
    expect(read(['ser', 'ial,"Valc', 'ambi ""SA""', '"\r', '\nAB', '1,x'])).toEqual([
      { line: 1, fields: ['serial', 'Valcambi "SA"'] },
      { line: 2, fields: ['AB1', 'x'] },
    ])
  })

  it('reports an unclosed quote, and text after a closing quote, and reads nothing after', () => {
    expect(read('a,"open\n')).toEqual([{ line: 1, problem: 'a quoted field is never closed' }])
    expect(read('a\n"b" c,d\ne,f\n')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, problem: 'unexpected text after a closing quote' },
    ])
    expect(read('"b"  ,"c" \n')).toEqual([{ line: 1, fields: ['b', 'c'] }])
  })

  it('refuses a record longer than maxRecordChars at once, quoted or not', () => {
    expect(read(`ab\n${'x'.repeat(11)}\nnext\n`, 10)).toEqual([
      { line: 1, fields: ['ab'] },
      { line: 2, problem: 'is longer than 10 characters' },
    ])
    expect(read(['a,"', 'y'.repeat(100), '"\n'], 10)).toEqual([{ line: 1, problem: 'is longer than 10 characters' }])
    // a body of one endless line: refused after maxRecordChars, the rest never looked at
    const items: CsvItem[] = []
    const reader = createCsvReader({ onItem: (item) => items.push(item), maxRecordChars: 4_096 })
    for (let i = 0; i < 1_000; i++) reader.push(' '.repeat(16_384))
    reader.end()
    expect(items).toEqual([{ line: 1, problem: 'is longer than 4,096 characters' }])
  })
})
