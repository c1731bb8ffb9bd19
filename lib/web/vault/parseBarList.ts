import { createHash } from 'node:crypto'
import { z } from 'zod'
import { computeFineOz } from '@/lib/mint/computeFineOz'
import { barFieldSchemas } from '@/lib/mint/mintRequestSchema'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import { type ErrorIssue, MalformedJsonError, ValidationError } from '@/lib/web/errors'
import { BAR_LIST_CSV_COLUMNS, BAR_LIST_LIMITS } from './barListLimits'
import { parseCsvRecords } from './parseCsvRecords'

/** One bar of a list, validated: keys normalized, weights canonical (3 decimals, fineness 2), fine weight computed. */
export type BarListBar = {
  serial: string
  refiner: string
  serialKey: string
  refinerKey: string
  year: number
  /** troy oz, 3 decimals ("401.125") */
  grossOz: string
  /** parts per thousand, 2 decimals ("999.90") */
  fineness: string
  /** gross x fineness / 1000 rounded down to 0.001 oz (lib/mint/computeFineOz) */
  fineOz: string
}

export type ParsedBarList = {
  vault: string
  asOf: Date
  bars: BarListBar[]
  /** sha256 (hex) of the canonical content: the same bars give the same hash in JSON or CSV, in any order */
  contentSha256: string
}

export type ParseBarListParameters =
  /** the JSON body of docs/api.md: `{ vault, asOf, bars: [...] }`, as text */
  | { format: 'json'; text: string; now?: Date }
  /** the same, already parsed (scripts, the dev seed, tests) */
  | { format: 'value'; value: unknown; now?: Date }
  /** text/csv with the header serial,refiner,year,grossOz,fineness; vault and asOf given apart (`?vault=&asOf=`) */
  | { format: 'csv'; text: string; vault: unknown; asOf: unknown; now?: Date }

export type ParseBarListReturnType = ParsedBarList

const { text, year, grossOz, fineness } = barFieldSchemas

/** A bar as the custodian lists it: the mint request's rules for each field, every field required. */
const barSchema = z.strictObject(
  { serial: text, refiner: text, year, grossOz, fineness },
  {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
      if (issue.code === 'invalid_type') return issue.input === undefined ? 'is required' : 'must be an object'
      return undefined
    },
  },
)

const asOfSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an ISO 8601 time') })
  .superRefine((value, ctx) => {
    if (
      !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value) ||
      Number.isNaN(Date.parse(value))
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an ISO 8601 time with its offset, e.g. 2026-11-30T06:00:00Z (or a date, 2026-11-30)',
      })
    }
  })
  .transform((value) => new Date(value))

const headerSchema = z.strictObject(
  {
    vault: text,
    asOf: asOfSchema,
    bars: z.array(z.unknown(), {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a list of bars'),
    }),
  },
  {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
      if (issue.code === 'invalid_type') return 'must be an object: { vault, asOf, bars }'
      return undefined
    },
  },
)

/**
 * Validates a custodian's bar list (docs/api.md, Vault inventory) and brings it to one form,
 * whether it came as JSON or CSV. Every field follows the mint request's rules; serial
 * and refiner must make keys (lib/vault/normalizeBarKey: no non-ASCII look-alikes); the
 * same bar twice in one list (same keys) is an issue; 1 to 100,000 bars; `asOf` not in
 * the future. Throws a ValidationError (422) listing each issue with its place:
 * `bars.3.grossOz` in JSON, `line.12.grossOz` in CSV (the file's line, header = 1), at
 * most 200 issues and a count of the rest. Invalid JSON: MalformedJsonError (400).
 */
export function parseBarList(p: ParseBarListParameters): ParseBarListReturnType {
  const issues = new IssueList()
  const now = p.now ?? new Date()
  let header: { vault: string; asOf: Date } | null = null
  const rows: Row[] = []

  if (p.format === 'csv') {
    header = parseHeader({ vault: p.vault, asOf: p.asOf, bars: [] }, issues)
    readCsv(p.text, rows, issues)
  } else {
    let value: unknown
    if (p.format === 'json') {
      try {
        value = JSON.parse(p.text) as unknown
      } catch (cause) {
        throw new MalformedJsonError({ cause })
      }
    } else value = p.value
    header = parseHeader(value, issues)
    const bars = typeof value === 'object' && value !== null ? (value as { bars?: unknown }).bars : undefined
    if (Array.isArray(bars))
      for (const [index, bar] of bars.entries())
        rows.push({ place: `bars.${index}`, label: `bar ${index + 1}`, value: bar })
  }

  if (header && header.asOf.getTime() > now.getTime() + BAR_LIST_LIMITS.maxFutureMs) {
    issues.add({ path: 'asOf', message: `must not be in the future (it is ${header.asOf.toISOString()})` })
  }
  const place = p.format === 'csv' ? '' : 'bars'
  if (rows.length === 0) issues.add({ path: place, message: 'must list at least one bar' })
  if (rows.length > BAR_LIST_LIMITS.maxBars) {
    issues.add({
      path: place,
      message: `must list at most ${BAR_LIST_LIMITS.maxBars.toLocaleString('en')} bars (it lists ${rows.length.toLocaleString('en')})`,
    })
    throw issues.toError()
  }

  const bars: BarListBar[] = []
  const seen = new Map<string, string>()
  for (const row of rows) {
    if (row.problem) {
      issues.add({ path: row.place, message: row.problem })
      continue
    }
    const bar = parseBar(row, issues)
    if (!bar) continue
    const key = `${bar.serialKey}\u0000${bar.refinerKey}`
    const first = seen.get(key)
    if (first !== undefined) {
      issues.add({
        path: `${row.place}.serial`,
        message: `bar ${bar.serial} (${bar.refiner}) is listed twice: also ${first}`,
      })
      continue
    }
    seen.set(key, row.label)
    bars.push(bar)
  }

  if (!issues.empty() || !header) throw issues.toError()
  return { vault: header.vault, asOf: header.asOf, bars, contentSha256: hashBars(bars) }
}

function parseHeader(value: unknown, issues: IssueList): { vault: string; asOf: Date } | null {
  const result = headerSchema.safeParse(value)
  if (result.success) return { vault: result.data.vault, asOf: result.data.asOf }
  for (const issue of result.error.issues)
    issues.add({ path: issue.path.map(String).join('.'), message: issue.message })
  return null
}

/**
 * A bar as found in the input, with its place for the issues
 * (`bars.3`, `line.12`); `problem` when it could not even be read.
 */
type Row = { place: string; label: string; value: unknown; problem?: string }

function readCsv(csv: string, rows: Row[], issues: IssueList): void {
  const { records, problems } = parseCsvRecords(csv)
  for (const problem of problems) issues.add({ path: `line.${problem.line}`, message: problem.message })
  const [head, ...body] = records
  if (!head) return
  const names = head.fields.map((f) => f.trim())
  const column = new Map<string, number>()
  names.forEach((name, index) => {
    const known = BAR_LIST_CSV_COLUMNS.find((c) => c.toLowerCase() === name.toLowerCase())
    if (!known)
      issues.add({
        path: `line.${head.line}`,
        message: `unknown column '${name}': the header is ${BAR_LIST_CSV_COLUMNS.join(',')}`,
      })
    else if (column.has(known)) issues.add({ path: `line.${head.line}`, message: `column '${known}' is given twice` })
    else column.set(known, index)
  })
  const absent = BAR_LIST_CSV_COLUMNS.filter((c) => !column.has(c))
  if (absent.length > 0) {
    issues.add({
      path: `line.${head.line}`,
      message: `the header lacks ${absent.join(', ')}: it must be ${BAR_LIST_CSV_COLUMNS.join(',')}`,
    })
    return
  }
  for (const record of body) {
    const place = `line.${record.line}`
    if (record.fields.length !== names.length) {
      rows.push({
        place,
        label: `line ${record.line}`,
        value: undefined,
        problem: `has ${record.fields.length} fields, the header ${names.length}`,
      })
      continue
    }
    const field = (name: (typeof BAR_LIST_CSV_COLUMNS)[number]) => record.fields[column.get(name) ?? -1] ?? ''
    const yearText = field('year')
    rows.push({
      place,
      label: `line ${record.line}`,
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
}

function parseBar(row: { place: string; value: unknown }, issues: IssueList): BarListBar | null {
  const result = barSchema.safeParse(row.value)
  if (!result.success) {
    for (const issue of result.error.issues)
      issues.add({ path: [row.place, ...issue.path.map(String)].join('.'), message: issue.message })
    return null
  }
  const bar = result.data
  const serialKey = normalizeBarKey(bar.serial)
  const refinerKey = normalizeBarKey(bar.refiner)
  if (!serialKey.ok) issues.add({ path: `${row.place}.serial`, message: serialKey.message })
  if (!refinerKey.ok) issues.add({ path: `${row.place}.refiner`, message: refinerKey.message })
  if (!serialKey.ok || !refinerKey.ok) return null
  const gross = parseDecimal(bar.grossOz, { decimals: 3 })
  const fine = parseDecimal(bar.fineness, { decimals: 2 })
  const fineOz = computeFineOz({ grossMilliOz: gross, finenessHundredths: fine })
  if (fineOz === 0n) {
    issues.add({ path: `${row.place}.grossOz`, message: 'gives a fine weight under 0.001 oz' })
    return null
  }
  return {
    serial: bar.serial,
    refiner: bar.refiner,
    serialKey: serialKey.key,
    refinerKey: refinerKey.key,
    year: bar.year,
    grossOz: formatDecimal(gross, { decimals: 3, minFraction: 3 }),
    fineness: formatDecimal(fine, { decimals: 2, minFraction: 2 }),
    fineOz: formatDecimal(fineOz, { decimals: 3, minFraction: 3 }),
  }
}

/** sha256 over the bars sorted by key, one canonical line each. */
function hashBars(bars: readonly BarListBar[]): string {
  const lines = bars.map((b) =>
    [b.serialKey, b.refinerKey, b.serial, b.refiner, b.year, b.grossOz, b.fineness].join('\t'),
  )
  lines.sort()
  const hash = createHash('sha256')
  for (const line of lines) hash.update(`${line}\n`)
  return hash.digest('hex')
}

class IssueList {
  private readonly issues: ErrorIssue[] = []
  private dropped = 0
  add(issue: ErrorIssue): void {
    if (this.issues.length < BAR_LIST_LIMITS.maxIssues) this.issues.push(issue)
    else this.dropped++
  }
  empty(): boolean {
    return this.issues.length === 0
  }
  toError(): ValidationError {
    const all =
      this.dropped > 0 ? [...this.issues, { path: '', message: `and ${this.dropped} more issues` }] : this.issues
    return new ValidationError(all, 'The bar list is invalid.')
  }
}
