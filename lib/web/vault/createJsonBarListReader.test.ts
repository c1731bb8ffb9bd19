import { describe, expect, it } from 'vitest'
import { MalformedJsonError } from '@/lib/web/errors'
import { createJsonBarListReader, type JsonOversized } from './createJsonBarListReader'

class Oversized extends Error {
  constructor(readonly where: JsonOversized) {
    super(JSON.stringify(where))
  }
}

/** what the reader reports for `pieces`, in that split (and one character at a time: the same) */
function read(pieces: string | string[], { maxValueChars = 200, maxNameChars = 20 } = {}) {
  const run = (split: string[]) => {
    const seen: unknown[] = []
    const reader = createJsonBarListReader({
      maxValueChars,
      maxNameChars,
      events: {
        field: (name, value) => seen.push({ field: name, value }),
        barsStart: () => seen.push('bars'),
        bar: (index, value) => seen.push({ bar: index, value }),
        top: (value) => seen.push({ top: value }),
        oversized: (where) => {
          throw new Oversized(where)
        },
      },
    })
    try {
      for (const piece of split) reader.push(piece)
      reader.end()
    } catch (error) {
      seen.push(error instanceof MalformedJsonError ? 'malformed' : error instanceof Oversized ? error.where : error)
    }
    return seen
  }
  const split = typeof pieces === 'string' ? [pieces] : pieces
  const seen = run(split)
  expect(run([...split.join('')]), 'read one character at a time').toEqual(seen)
  return seen
}

describe('createJsonBarListReader', () => {
  it('reports the fields, then each bar as soon as it is complete, in any split', () => {
    const text =
      ' {"vault" : "LDN-1", "asOf":"2026-11-30","bars":[ {"serial":"A\\"1","n":[1,{"x":"]"}]} , 7,null ],"x":{"y":[]}} '
    expect(read([text.slice(0, 30), text.slice(30, 55), text.slice(55)])).toEqual([
      { field: 'vault', value: 'LDN-1' },
      { field: 'asOf', value: '2026-11-30' },
      'bars',
      { bar: 0, value: { serial: 'A"1', n: [1, { x: ']' }] } },
      { bar: 1, value: 7 },
      { bar: 2, value: null },
      { field: 'x', value: { y: [] } },
    ])
    expect(read('{"bars":[]}')).toEqual(['bars'])
    expect(read('{}')).toEqual([])
    expect(read('{"bars":{"a":1},"n":-1.5e3}')).toEqual([
      { field: 'bars', value: { a: 1 } },
      { field: 'n', value: -1500 },
    ])
  })

  it('a top level that is not an object is reported whole', () => {
    expect(read('null')).toEqual([{ top: null }])
    expect(read(' [1, "a"] ')).toEqual([{ top: [1, 'a'] }])
    expect(read('12')).toEqual([{ top: 12 }])
  })

  it('throws MalformedJsonError where the text stops being JSON, reading nothing after', () => {
    for (const bad of [
      '',
      '{"vault":',
      '{"vault" "x"}',
      '{vault:1}',
      '{"a":1,}',
      '{"bars":[1,]}',
      '{"bars":[,1]}',
      '{"bars":[1 2]}',
      '{"a":1}}',
      '{"a":1} x',
      '{"a":tru}',
      '{"a":"\u0001"}',
      '{"a":x}',
      '\ufeff{}',
      '{"bars":[{"a":1]}',
    ]) {
      expect(read(bad).at(-1), bad).toBe('malformed')
    }
    expect(read('{"bars":[{"serial":"A1"}, {"serial" 1}, {"serial":"A3"}]}')).toEqual([
      'bars',
      { bar: 0, value: { serial: 'A1' } },
      'malformed',
    ])
  })

  it('a value, a bar or a name past its limit is reported as soon as it passes it', () => {
    expect(read(`{"bars":[1,{"serial":"${'x'.repeat(300)}"}]}`)).toEqual([
      'bars',
      { bar: 0, value: 1 },
      { at: 'bar', index: 1 },
    ])
    expect(read(`{"vault":[${'['.repeat(300)}`)).toEqual([{ at: 'field', name: 'vault' }])
    expect(read(`{"${'n'.repeat(30)}":1}`)).toEqual([{ at: 'name' }])
    expect(read(`[${'1,'.repeat(200)}1]`)).toEqual([{ at: 'top' }])
    // 20 MiB of one string: stopped after the limit (the rest of the pieces are never looked at)
    const seen: JsonOversized[] = []
    const reader = createJsonBarListReader({
      maxValueChars: 4_096,
      maxNameChars: 256,
      events: {
        field: () => {},
        barsStart: () => {},
        bar: () => {},
        top: () => {},
        oversized: (where) => {
          seen.push(where)
          throw new Oversized(where)
        },
      },
    })
    expect(() => {
      reader.push('{"bars":["')
      for (let i = 0; i < 1_280; i++) reader.push('a'.repeat(16_384))
    }).toThrow(Oversized)
    expect(seen).toEqual([{ at: 'bar', index: 0 }])
  })
})
