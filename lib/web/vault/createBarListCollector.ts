import { createHash } from 'node:crypto'
import { z } from 'zod'
import { computeFineOz } from '@/lib/mint/computeFineOz'
import { barFieldSchemas } from '@/lib/mint/mintRequestSchema'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import { type ErrorIssue, ValidationError } from '@/lib/web/errors'
import { BAR_LIST_LIMITS } from './barListLimits'
import type { BarListBar, ParsedBarList } from './parseBarList'

/**
 * A bar as found in the input: its place for the issues (`bars.3`, `line.12`) and where it is, the bar's index in
 * JSON or the file's line in CSV (a duplicate names it: `bar 4`, `line 12`).
 */
export type BarListRow = { place: string; at: number; value: unknown }

export type CreateBarListCollectorParameters = {
  /** where the list's own issues go: `bars` for JSON, `` for CSV */
  place: 'bars' | ''
  now?: Date
}

export type BarListCollector = {
  /**
   * Validates one bar now; its issues are kept. The row that brings an issue past
   * BAR_LIST_LIMITS.maxIssues refuses the list there, like a row that cannot be read.
   */
  add: (row: BarListRow) => void
  /** a row that cannot be read, or one past the limit: throws the ValidationError, with the issues so far */
  refuse: (...issues: ErrorIssue[]) => never
  /**
   * The list: the header (a JSON object, or `{ vault, asOf }` from a CSV's query string) is
   * checked, then every issue found is thrown as one ValidationError, the header's first.
   */
  finish: (header: unknown) => ParsedBarList
}

const { text, year, grossOz, fineness } = barFieldSchemas

const unknownFields = (issue: { code?: string; keys?: string[]; input?: unknown }, object: string) => {
  if (issue.code === 'unrecognized_keys' && issue.keys)
    return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
  if (issue.code === 'invalid_type') return issue.input === undefined ? 'is required' : `must be ${object}`
  return undefined
}

/** A bar as the custodian lists it: the mint request's rules for each field, every field required. */
const barSchema = z.strictObject(
  { serial: text, refiner: text, year, grossOz, fineness },
  { error: (issue) => unknownFields(issue, 'an object') },
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

/** `{ vault, asOf, bars }`; `bars` is only checked to be a list here (its bars are `add`ed one by one). */
const headerSchema = z.strictObject(
  {
    vault: text,
    asOf: asOfSchema,
    bars: z.array(z.unknown(), {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a list of bars'),
    }),
  },
  { error: (issue) => unknownFields(issue, 'an object: { vault, asOf, bars }') },
)

/**
 * The rules of a custodian's bar list (API.md, Vault inventory), applied bar by bar as a
 * reader finds them, whatever the format: every field follows the mint request's rules;
 * serial and refiner must make keys (lib/vault/normalizeBarKey: no non-ASCII look-alikes);
 * the same bar twice in one list (same keys) is an issue; 1 to 100,000 bars (the one past
 * the limit is refused at once); `asOf` not in the future. What it holds is bounded by the
 * limits: the valid bars (at most maxBars), their keys and at most maxIssues issues.
 */
export function createBarListCollector({
  place,
  now = new Date(),
}: CreateBarListCollectorParameters): BarListCollector {
  const issues: ErrorIssue[] = []
  let rows = 0
  const bars: BarListBar[] = []
  // where each bar was first found, by refiner key then serial key: no string of its own per bar (a list holds up
  // to 100,000 bars, and the keys are the bars' own)
  const seen = new Map<string, Map<string, number>>()
  const labelOf = (at: number) => (place === 'bars' ? `bar ${at + 1}` : `line ${at}`)
  const interned = createInterner()

  const toError = (first: ErrorIssue[] = [], last: ErrorIssue[] = []) =>
    new ValidationError([...first, ...issues, ...last], 'The bar list is invalid.')
  /** an issue of the row at `at`; past maxIssues the list is refused there (nothing further read) */
  const addIssue = (at: number) => (issue: ErrorIssue) => {
    if (issues.length >= BAR_LIST_LIMITS.maxIssues)
      throw toError([], [{ path: '', message: `and more issues from ${labelOf(at)} on: the list was read no further` }])
    issues.push(issue)
  }

  return {
    add(row) {
      rows++
      if (rows > BAR_LIST_LIMITS.maxBars)
        throw toError([
          {
            path: place,
            message: `must list at most ${BAR_LIST_LIMITS.maxBars.toLocaleString('en')} bars (${labelOf(row.at)} is one too many)`,
          },
        ])
      const issue = addIssue(row.at)
      const bar = parseBar(row, issue, interned)
      if (!bar) return
      const ofRefiner = seen.get(bar.refinerKey) ?? new Map<string, number>()
      if (ofRefiner.size === 0) seen.set(bar.refinerKey, ofRefiner)
      const first = ofRefiner.get(bar.serialKey)
      if (first !== undefined) {
        issue({
          path: `${row.place}.serial`,
          message: `bar ${bar.serial} (${bar.refiner}) is listed twice: also ${labelOf(first)}`,
        })
        return
      }
      ofRefiner.set(bar.serialKey, row.at)
      bars.push(bar)
    },
    refuse(...refusal) {
      const kept = refusal.slice(0, Math.max(1, BAR_LIST_LIMITS.maxIssues - issues.length))
      const rest = refusal.length - kept.length
      throw toError([], rest > 0 ? [...kept, { path: '', message: `and ${rest} more issues` }] : kept)
    },
    finish(value) {
      const headerIssues: ErrorIssue[] = []
      const result = headerSchema.safeParse(value)
      if (!result.success)
        for (const issue of result.error.issues)
          headerIssues.push({ path: issue.path.map(String).join('.'), message: issue.message })
      const header = result.success ? result.data : null
      if (header && header.asOf.getTime() > now.getTime() + BAR_LIST_LIMITS.maxFutureMs)
        headerIssues.push({ path: 'asOf', message: `must not be in the future (it is ${header.asOf.toISOString()})` })
      if (rows === 0) headerIssues.push({ path: place, message: 'must list at least one bar' })
      if (!header || headerIssues.length > 0 || issues.length > 0) throw toError(headerIssues)
      // the duplicates' index is done with: it goes before the hash sorts the bars
      seen.clear()
      return { vault: header.vault, asOf: header.asOf, bars, contentSha256: hashBars(bars) }
    },
  }
}

/**
 * One instance of each short text seen often (refiners, their keys, finenesses), up to INTERNED_MAX of them: a list's
 * 100,000 bars name a handful of refiners, and each bar then holds those strings, not copies.
 */
function createInterner(): (text: string) => string {
  const known = new Map<string, string>()
  return (text) => {
    const same = known.get(text)
    if (same !== undefined) return same
    if (known.size < INTERNED_MAX) known.set(text, text)
    return text
  }
}

const INTERNED_MAX = 1000

function parseBar(
  row: BarListRow,
  addIssue: (issue: ErrorIssue) => void,
  interned: (text: string) => string,
): BarListBar | null {
  const result = barSchema.safeParse(row.value)
  if (!result.success) {
    for (const issue of result.error.issues)
      addIssue({ path: [row.place, ...issue.path.map(String)].join('.'), message: issue.message })
    return null
  }
  const bar = result.data
  const serialKey = normalizeBarKey(bar.serial)
  const refinerKey = normalizeBarKey(bar.refiner)
  if (!serialKey.ok) addIssue({ path: `${row.place}.serial`, message: serialKey.message })
  if (!refinerKey.ok) addIssue({ path: `${row.place}.refiner`, message: refinerKey.message })
  if (!serialKey.ok || !refinerKey.ok) return null
  const gross = parseDecimal(bar.grossOz, { decimals: 3 })
  const fine = parseDecimal(bar.fineness, { decimals: 2 })
  const fineOz = computeFineOz({ grossMilliOz: gross, finenessHundredths: fine })
  if (fineOz === 0n) {
    addIssue({ path: `${row.place}.grossOz`, message: 'gives a fine weight under 0.001 oz' })
    return null
  }
  // a list holds up to 100,000 bars: a key equal to its text (a serial already upper case, no spaces) is that text
  return {
    serial: bar.serial,
    refiner: interned(bar.refiner),
    serialKey: serialKey.key === bar.serial ? bar.serial : serialKey.key,
    refinerKey: interned(refinerKey.key),
    year: bar.year,
    grossOz: formatDecimal(gross, { decimals: 3, minFraction: 3 }),
    fineness: interned(formatDecimal(fine, { decimals: 2, minFraction: 2 })),
    fineOz: formatDecimal(fineOz, { decimals: 3, minFraction: 3 }),
  }
}

/**
 * sha256 over the bars sorted by their canonical lines, one line each (serialKey, refinerKey, serial, refiner, year,
 * grossOz, fineness, tab-separated). The keys are unique in a list and hold no character below the tab (printable
 * ASCII), so ordering by (serialKey, refinerKey) is ordering by line: the bars are sorted, not a copy of their
 * lines, and each line is made only as it is hashed.
 */
function hashBars(bars: readonly BarListBar[]): string {
  const sorted = [...bars].sort(
    (a, b) => compareText(a.serialKey, b.serialKey) || compareText(a.refinerKey, b.refinerKey),
  )
  const hash = createHash('sha256')
  for (const b of sorted)
    hash.update(`${b.serialKey}\t${b.refinerKey}\t${b.serial}\t${b.refiner}\t${b.year}\t${b.grossOz}\t${b.fineness}\n`)
  return hash.digest('hex')
}

/** Array.prototype.sort's default order (UTF-16 code units), for two strings. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
