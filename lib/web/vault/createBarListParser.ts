import { BAR_LIST_CSV_COLUMNS, BAR_LIST_LIMITS } from './barListLimits'
import { createBarListCollector } from './createBarListCollector'
import { type CsvItem, createCsvReader } from './createCsvReader'
import { createJsonBarListReader, type JsonOversized } from './createJsonBarListReader'
import type { ParsedBarList } from './parseBarList'

export type CreateBarListParserParameters =
  /** the JSON body of API.md: `{ vault, asOf, bars: [...] }` */
  | { format: 'json'; now?: Date }
  /** text/csv with the header serial,refiner,year,grossOz,fineness; vault and asOf given apart (`?vault=&asOf=`) */
  | { format: 'csv'; vault: unknown; asOf: unknown; now?: Date }

export type BarListParser = {
  /** the next piece of the text, in any split; throws at the first row that refuses the list */
  push: (text: string) => void
  /** the text has ended: the validated list, or the error listing its issues */
  end: () => ParsedBarList
}

const chars = (n: number) => `${n.toLocaleString('en')} characters`

/**
 * A custodian's bar list read as it arrives, JSON or CSV (createJsonBarListReader,
 * createCsvReader), each bar checked as soon as it is complete (createBarListCollector).
 * Memory stays bounded whatever the input: one row of text at a time (at most
 * BAR_LIST_LIMITS.maxRowChars), the valid bars (at most maxBars) and at most maxIssues
 * issues. It refuses at once, reading nothing further, at a row that cannot be read (not
 * JSON: MalformedJsonError, 400; a CSV line with the wrong number of fields, a quote never
 * closed, a row over maxRowChars, a field given twice: ValidationError, 422) and at the
 * first bar past maxBars; bars that break a rule are listed (`bars.3.grossOz`,
 * `line.12.grossOz`) and the reading goes on. The header (vault, asOf) is checked at the end.
 *
 * ```ts
 * const parser = createBarListParser({ format: 'csv', vault: 'LDN-1', asOf: '2026-11-30T06:00:00Z' })
 * for await (const text of body.chunks) parser.push(text)
 * const list = parser.end()
 * ```
 */
export function createBarListParser(p: CreateBarListParserParameters): BarListParser {
  return p.format === 'csv' ? csvParser(p) : jsonParser(p)
}

function jsonParser({ now }: { now?: Date }): BarListParser {
  const collector = createBarListCollector({ place: 'bars', now })
  // the top level's fields as found (bars: [] when it is an array, its bars go to the collector)
  const header: Record<string, unknown> = {}
  let top: { value: unknown } | null = null
  const put = (name: string, value: unknown) => {
    if (Object.hasOwn(header, name)) collector.refuse({ path: name, message: 'is given twice' })
    if (Object.keys(header).length >= BAR_LIST_LIMITS.maxFields)
      collector.refuse({ path: '', message: `has more than ${BAR_LIST_LIMITS.maxFields} fields` })
    // defined, not assigned: a field named __proto__ is a field like any other (and reported as unknown)
    Object.defineProperty(header, name, { value, enumerable: true, writable: true, configurable: true })
  }
  const oversized = (where: JsonOversized): never => {
    if (where.at === 'name')
      collector.refuse({
        path: '',
        message: `has a field name longer than ${chars(BAR_LIST_LIMITS.maxFieldNameChars)}`,
      })
    if (where.at === 'field')
      collector.refuse({ path: where.name, message: `is longer than ${chars(BAR_LIST_LIMITS.maxRowChars)}` })
    if (where.at === 'bar')
      collector.refuse({ path: `bars.${where.index}`, message: `is longer than ${chars(BAR_LIST_LIMITS.maxRowChars)}` })
    return collector.refuse({ path: '', message: 'must be an object: { vault, asOf, bars }' })
  }
  const reader = createJsonBarListReader({
    maxValueChars: BAR_LIST_LIMITS.maxRowChars,
    maxNameChars: BAR_LIST_LIMITS.maxFieldNameChars,
    events: {
      field: put,
      barsStart: () => put('bars', []),
      bar: (index, value) => collector.add({ place: `bars.${index}`, at: index, value }),
      top: (value) => {
        top = { value }
      },
      oversized,
    },
  })
  return {
    push: reader.push,
    end: () => {
      reader.end()
      return collector.finish(top ? top.value : header)
    },
  }
}

function csvParser({ vault, asOf, now }: { vault: unknown; asOf: unknown; now?: Date }): BarListParser {
  const collector = createBarListCollector({ place: '', now })
  let columns: { names: string[]; index: Map<(typeof BAR_LIST_CSV_COLUMNS)[number], number> } | null = null

  const onItem = (item: CsvItem) => {
    const place = `line.${item.line}`
    if ('problem' in item) return collector.refuse({ path: place, message: item.problem })
    if (!columns) {
      columns = readHeader(item.fields, place, collector.refuse)
      return
    }
    const { names, index } = columns
    if (item.fields.length !== names.length)
      collector.refuse({ path: place, message: `has ${item.fields.length} fields, the header ${names.length}` })
    const field = (name: (typeof BAR_LIST_CSV_COLUMNS)[number]) => item.fields[index.get(name) ?? -1] ?? ''
    const yearText = field('year')
    collector.add({
      place,
      at: item.line,
      value: {
        serial: field('serial'),
        refiner: field('refiner'),
        // a year that is not a whole number stays text, so the schema names it
        year: /^[0-9]{1,6}$/.test(yearText) ? Number(yearText) : yearText === '' ? undefined : yearText,
        grossOz: field('grossOz'),
        fineness: field('fineness'),
      },
    })
  }
  const reader = createCsvReader({ onItem, maxRecordChars: BAR_LIST_LIMITS.maxRowChars })
  return {
    push: reader.push,
    end: () => {
      reader.end()
      return collector.finish({ vault, asOf, bars: [] })
    },
  }
}

/**
 * The header line: each known column once, in any order and letter case; else the list is refused here, with ONE
 * issue saying what the header must be and everything wrong with this one.
 */
function readHeader(
  fields: readonly string[],
  place: string,
  refuse: (...issues: { path: string; message: string }[]) => never,
) {
  const names = fields.map((f) => f.trim())
  const index = new Map<(typeof BAR_LIST_CSV_COLUMNS)[number], number>()
  const unknown: string[] = []
  const twice: string[] = []
  names.forEach((name, i) => {
    const known = BAR_LIST_CSV_COLUMNS.find((c) => c.toLowerCase() === name.toLowerCase())
    if (!known) unknown.push(`'${name}'`)
    else if (index.has(known)) twice.push(`'${known}'`)
    else index.set(known, i)
  })
  const absent = BAR_LIST_CSV_COLUMNS.filter((c) => !index.has(c))
  const wrong = [
    unknown.length > 0 ? `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}` : null,
    twice.length > 0 ? `${twice.join(', ')} given twice` : null,
    absent.length > 0 ? `${absent.join(', ')} missing` : null,
  ].filter((w) => w !== null)
  if (wrong.length > 0)
    refuse({ path: place, message: `the header must be ${BAR_LIST_CSV_COLUMNS.join(',')}: ${wrong.join('; ')}` })
  return { names, index }
}
