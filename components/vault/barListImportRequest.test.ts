import { describe, expect, it } from 'vitest'
import { barListFormatOf, barListImportRequest } from './barListImportRequest'

describe('bar-list import request', () => {
  it('reads the format from the extension first, then the browser type', () => {
    expect(barListFormatOf({ fileName: 'LDN-1 2026-11-30.CSV', fileType: 'application/vnd.ms-excel' })).toBe('csv')
    expect(barListFormatOf({ fileName: 'list.json', fileType: '' })).toBe('json')
    expect(barListFormatOf({ fileName: 'list', fileType: 'text/csv; charset=utf-8' })).toBe('csv')
    expect(
      barListFormatOf({
        fileName: 'list.xlsx',
        fileType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
    ).toBeNull()
  })

  it('a JSON list names its own vault and date: the fields are not sent', () => {
    expect(
      barListImportRequest({ fileName: 'list.json', fileType: '', vault: 'LDN-1', asOf: '2026-01-01T00:00:00Z' }),
    ).toEqual({
      ok: true,
      format: 'json',
      url: '/api/admin/vault/bar-lists',
      contentType: 'application/json',
    })
  })

  it('a CSV list takes the vault and as-of time from the form, as the query', () => {
    expect(
      barListImportRequest({
        fileName: 'list.csv',
        fileType: 'text/csv',
        vault: ' ZRH 2 ',
        asOf: '2026-11-30T06:00:00+01:00',
      }),
    ).toEqual({
      ok: true,
      format: 'csv',
      url: '/api/admin/vault/bar-lists?vault=ZRH+2&asOf=2026-11-30T06%3A00%3A00%2B01%3A00',
      contentType: 'text/csv',
    })
    expect(barListImportRequest({ fileName: 'list.csv', fileType: '', vault: '', asOf: '2026-11-30' })).toMatchObject({
      ok: false,
    })
  })

  it('another file is refused before anything is sent', () => {
    expect(barListImportRequest({ fileName: 'list.pdf', fileType: 'application/pdf', vault: 'A', asOf: 'B' })).toEqual({
      ok: false,
      message: 'Choose a .json or .csv bar list.',
    })
  })
})
