import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MalformedJsonError, ValidationError } from '@/lib/web/errors'
import { parseBarList } from './parseBarList'

const NOW = new Date('2026-11-30T12:00:00Z')

const bar = (serial: string, extra: Record<string, unknown> = {}) => ({
  serial,
  refiner: 'Valcambi SA',
  year: 2025,
  grossOz: '401.125',
  fineness: '999.9',
  ...extra,
})

function issuesOf(fn: () => unknown) {
  try {
    fn()
  } catch (error) {
    if (error instanceof ValidationError) return error.issues
    throw error
  }
  throw new Error('expected a ValidationError')
}

describe('parseBarList: JSON', () => {
  it('validates and normalizes a list: keys, canonical weights, fine weight', () => {
    const list = parseBarList({
      format: 'value',
      now: NOW,
      value: {
        vault: 'LDN-1',
        asOf: '2026-11-30T06:00:00Z',
        bars: [bar('ab-123456'), bar('X2', { grossOz: '400', fineness: '995' })],
      },
    })
    expect(list.vault).toBe('LDN-1')
    expect(list.asOf.toISOString()).toBe('2026-11-30T06:00:00.000Z')
    expect(list.bars).toEqual([
      {
        serial: 'ab-123456',
        refiner: 'Valcambi SA',
        serialKey: 'AB123456',
        refinerKey: 'VALCAMBISA',
        year: 2025,
        grossOz: '401.125',
        fineness: '999.90',
        fineOz: '401.084',
      },
      {
        serial: 'X2',
        refiner: 'Valcambi SA',
        serialKey: 'X2',
        refinerKey: 'VALCAMBISA',
        year: 2025,
        grossOz: '400.000',
        fineness: '995.00',
        fineOz: '398.000',
      },
    ])
    expect(list.contentSha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('the same bars in another order, or as CSV, give the same content hash', () => {
    const a = parseBarList({
      format: 'value',
      now: NOW,
      value: { vault: 'V', asOf: '2026-11-30', bars: [bar('A1'), bar('A2')] },
    })
    const b = parseBarList({
      format: 'json',
      now: NOW,
      text: JSON.stringify({ vault: 'V', asOf: '2026-11-30', bars: [bar('A2'), bar('A1')] }),
    })
    const c = parseBarList({
      format: 'csv',
      now: NOW,
      vault: 'V',
      asOf: '2026-11-30',
      text: 'serial,refiner,year,grossOz,fineness\nA2,Valcambi SA,2025,401.125,999.90\nA1,"Valcambi SA",2025,401.125,999.9\n',
    })
    expect(b.contentSha256).toBe(a.contentSha256)
    expect(c.contentSha256).toBe(a.contentSha256)
    const d = parseBarList({
      format: 'value',
      now: NOW,
      value: { vault: 'V', asOf: '2026-11-30', bars: [bar('A1'), bar('A2', { year: 2024 })] },
    })
    expect(d.contentSha256).not.toBe(a.contentSha256)
  })

  it('hashes the canonical lines in sorted order: keys that sort apart from their text, a key a prefix of another', () => {
    const bars = [
      bar('ab-10', { refiner: 'pamp sa' }),
      bar('AB1', { refiner: 'PAMP SA' }),
      bar('ab 1', { refiner: 'Valcambi SA' }),
      bar('Z0', { refiner: 'Argor-Heraeus SA' }),
      bar('AB1 0', { refiner: 'Valcambi SA', grossOz: '400.5' }),
    ]
    const list = parseBarList({ format: 'value', now: NOW, value: { vault: 'V', asOf: '2026-11-30', bars } })
    const lines = list.bars.map((b) =>
      [b.serialKey, b.refinerKey, b.serial, b.refiner, b.year, b.grossOz, b.fineness].join('\t'),
    )
    lines.sort()
    expect(list.contentSha256).toBe(
      createHash('sha256')
        .update(lines.map((l) => `${l}\n`).join(''))
        .digest('hex'),
    )
    // the list keeps the bars in the order given
    expect(list.bars.map((b) => b.serial)).toEqual(bars.map((b) => b.serial))
  })

  it('names each broken field by its place', () => {
    const issues = issuesOf(() =>
      parseBarList({
        format: 'value',
        now: NOW,
        value: {
          vault: 'LDN-1',
          asOf: 'yesterday',
          bars: [
            bar('A1', { grossOz: '-1' }),
            bar('A2', { fineness: '1000' }),
            { serial: 'A3' },
            bar('A4', { fineOz: '1' }),
          ],
        },
      }),
    )
    expect(issues?.map((i) => i.path)).toEqual([
      'asOf',
      'bars.0.grossOz',
      'bars.1.fineness',
      'bars.2.refiner',
      'bars.2.year',
      'bars.2.grossOz',
      'bars.2.fineness',
      'bars.3',
    ])
    expect(issues?.[7]?.message).toBe('unknown field: fineOz')
  })

  it('refuses a bar listed twice (same keys, another spelling)', () => {
    const issues = issuesOf(() =>
      parseBarList({
        format: 'value',
        now: NOW,
        value: {
          vault: 'V',
          asOf: '2026-11-30',
          bars: [bar('AB-1'), bar('B2'), bar('ab 1', { refiner: 'VALCAMBI-SA' })],
        },
      }),
    )
    expect(issues).toEqual([{ path: 'bars.2.serial', message: 'bar ab 1 (VALCAMBI-SA) is listed twice: also bar 1' }])
  })

  it('refuses non-ASCII look-alikes in serial and refiner', () => {
    const issues = issuesOf(() =>
      parseBarList({
        format: 'value',
        now: NOW,
        value: {
          vault: 'V',
          asOf: '2026-11-30',
          bars: [bar('\u0410B1'), bar('AB\uff12', { refiner: 'P\u0410MP SA' })],
        },
      }),
    )
    expect(issues?.map((i) => i.path)).toEqual(['bars.0.serial', 'bars.1.serial', 'bars.1.refiner'])
    expect(issues?.[0]?.message).toContain("looks like 'A'")
  })

  it('refuses an empty list, a list from the future and unknown fields', () => {
    expect(
      issuesOf(() => parseBarList({ format: 'value', now: NOW, value: { vault: 'V', asOf: '2026-11-30', bars: [] } })),
    ).toEqual([{ path: 'bars', message: 'must list at least one bar' }])
    expect(
      issuesOf(() =>
        parseBarList({
          format: 'value',
          now: NOW,
          value: { vault: 'V', asOf: '2026-12-30T00:00:00Z', bars: [bar('A')] },
        }),
      )?.[0]?.path,
    ).toBe('asOf')
    expect(
      issuesOf(() =>
        parseBarList({
          format: 'value',
          now: NOW,
          value: { vault: 'V', asOf: '2026-11-30', bars: [bar('A')], extra: 1 },
        }),
      )?.[0]?.message,
    ).toBe('unknown field: extra')
  })

  it('malformed JSON is a MalformedJsonError; a non-object a validation issue', () => {
    expect(() => parseBarList({ format: 'json', now: NOW, text: '{"vault":' })).toThrow(MalformedJsonError)
    expect(issuesOf(() => parseBarList({ format: 'json', now: NOW, text: 'null' }))?.[0]?.message).toContain(
      'must be an object',
    )
  })

  it('reads JSON text as it reads the value: the same list, the same issues', () => {
    const value = {
      vault: 'LDN-1',
      asOf: 'yesterday',
      bars: [bar('A1', { grossOz: '-1' }), { serial: 'A3' }, bar('A4', { fineOz: '1' }), bar('A1')],
      extra: true,
    }
    const fromText = issuesOf(() => parseBarList({ format: 'json', now: NOW, text: JSON.stringify(value) }))
    expect(fromText).toEqual(issuesOf(() => parseBarList({ format: 'value', now: NOW, value })))
    expect(fromText?.map((i) => i.path)).toEqual([
      'asOf',
      '',
      'bars.0.grossOz',
      'bars.1.refiner',
      'bars.1.year',
      'bars.1.grossOz',
      'bars.1.fineness',
      'bars.2',
    ])
    const good = { vault: 'V', asOf: '2026-11-30', bars: [bar('A1'), bar('A2')] }
    expect(parseBarList({ format: 'json', now: NOW, text: JSON.stringify(good, null, 2) })).toEqual(
      parseBarList({ format: 'value', now: NOW, value: good }),
    )
  })

  it('stops at the first JSON it cannot read, and at a bar, a value or a field past its limits', () => {
    const head = '{"vault":"V","asOf":"2026-11-30","bars":['
    const refused = (text: string) => issuesOf(() => parseBarList({ format: 'json', now: NOW, text }))
    expect(() =>
      parseBarList({ format: 'json', now: NOW, text: `${head}${JSON.stringify(bar('A1'))},{"serial" 1}` }),
    ).toThrow(MalformedJsonError)
    expect(refused(`${head}${JSON.stringify(bar('A1', { year: 'x' }))},{"serial":"${'x'.repeat(5_000)}"}`)).toEqual([
      { path: 'bars.0.year', message: expect.any(String) },
      { path: 'bars.1', message: 'is longer than 4,096 characters' },
    ])
    expect(refused(`{"vault":"${'v'.repeat(5_000)}"`)).toEqual([
      { path: 'vault', message: 'is longer than 4,096 characters' },
    ])
    expect(refused('{"vault":"V","vault":"W"}')).toEqual([{ path: 'vault', message: 'is given twice' }])
    expect(refused(`{${Array.from({ length: 17 }, (_, i) => `"f${i}":1`).join(',')}}`)).toEqual([
      { path: '', message: 'has more than 16 fields' },
    ])
    expect(refused(`[${'[],'.repeat(3_000)}[]]`)).toEqual([
      { path: '', message: 'must be an object: { vault, asOf, bars }' },
    ])
    // a field named __proto__ is an unknown field, and Object.prototype is left alone
    expect(refused('{"vault":"V","asOf":"2026-11-30","bars":[],"__proto__":{"polluted":1}}')).toEqual([
      { path: '', message: 'unknown field: __proto__' },
      { path: 'bars', message: 'must list at least one bar' },
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('caps the issues it reports: the bar with one more issue stops the reading there', () => {
    const bars = Array.from({ length: 300 }, (_, i) => bar(`B${i}`, { grossOz: 'x' }))
    const issues = issuesOf(() =>
      parseBarList({ format: 'value', now: NOW, value: { vault: 'V', asOf: '2026-11-30', bars } }),
    )
    expect(issues).toHaveLength(201)
    expect(issues?.[199]?.path).toBe('bars.199.grossOz')
    expect(issues?.[200]).toEqual({
      path: '',
      message: 'and more issues from bar 201 on: the list was read no further',
    })
  })

  it('parses 100,000 bars, and refuses 100,001', () => {
    const bars = Array.from({ length: 100_000 }, (_, i) => bar(`S${i}`))
    expect(
      parseBarList({ format: 'value', now: NOW, value: { vault: 'V', asOf: '2026-11-30', bars } }).bars,
    ).toHaveLength(100_000)
    bars.push(bar('ONE-MORE'))
    expect(
      issuesOf(() => parseBarList({ format: 'value', now: NOW, value: { vault: 'V', asOf: '2026-11-30', bars } }))?.[0]
        ?.message,
    ).toContain('at most 100,000 bars')
  })
})

describe('parseBarList: CSV', () => {
  const csv = (lines: string[]) =>
    parseBarList({ format: 'csv', now: NOW, vault: 'LDN-1', asOf: '2026-11-30T06:00:00Z', text: lines.join('\n') })

  it('reads the header in any order and letter case', () => {
    const list = csv(['Refiner,SERIAL,year,grossoz,fineness', '"PAMP SA",P-1,2024,400.000,999.9'])
    expect(list.bars).toEqual([
      {
        serial: 'P-1',
        refiner: 'PAMP SA',
        serialKey: 'P1',
        refinerKey: 'PAMPSA',
        year: 2024,
        grossOz: '400.000',
        fineness: '999.90',
        fineOz: '399.960',
      },
    ])
  })

  it('numbers each issue by its line in the file', () => {
    const issues = issuesOf(() =>
      csv([
        'serial,refiner,year,grossOz,fineness',
        'A1,Valcambi SA,2025,401.125,999.9',
        '',
        'A2,Valcambi SA,20x5,401.125,999.9',
        'a-1,Valcambi SA,2025,401.125,999.9',
        'A3,Valcambi SA,2025,401.125',
      ]),
    )
    expect(issues).toEqual([
      { path: 'line.4.year', message: 'must be a whole number (a year)' },
      { path: 'line.5.serial', message: 'bar a-1 (Valcambi SA) is listed twice: also line 2' },
      { path: 'line.6', message: 'has 4 fields, the header 5' },
    ])
  })

  it('stops at the first line it cannot read: nothing after it is looked at', () => {
    const issues = issuesOf(() =>
      csv([
        'serial,refiner,year,grossOz,fineness',
        'A1,Valcambi SA,20x5,401.125,999.9',
        'a',
        'A2,Valcambi SA,2025,-1,999.9',
        'A3,"never closed',
      ]),
    )
    expect(issues).toEqual([
      { path: 'line.2.year', message: 'must be a whole number (a year)' },
      { path: 'line.3', message: 'has 1 fields, the header 5' },
    ])
    expect(issuesOf(() => csv(['serial,refiner,year,grossOz,fineness', `A1,${'x'.repeat(5_000)}`]))).toEqual([
      { path: 'line.2', message: 'is longer than 4,096 characters' },
    ])
  })

  it('refuses a wrong header, and checks vault and asOf from the query', () => {
    // a wrong header: refused there, no line after it read
    expect(issuesOf(() => csv(['serial,refiner,year,weight', 'A,B,2025,1']))?.map((i) => i.message)).toEqual([
      "the header must be serial,refiner,year,grossOz,fineness: unknown column 'weight'; grossOz, fineness missing",
    ])
    expect(issuesOf(() => csv(['serial,Serial,refiner,year,grossOz,fineness,x', 'A,B,2025,1']))).toHaveLength(1)
    const issues = issuesOf(() =>
      parseBarList({
        format: 'csv',
        now: NOW,
        vault: undefined,
        asOf: '',
        text: 'serial,refiner,year,grossOz,fineness\nA,B,2025,400,999.9',
      }),
    )
    expect(issues?.map((i) => i.path)).toEqual(['vault', 'asOf'])
  })
})
