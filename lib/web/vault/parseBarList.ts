import { createBarListCollector } from './createBarListCollector'
import { createBarListParser } from './createBarListParser'

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

/**
 * Validates a custodian's bar list held whole (API.md, Vault inventory): text, or a value
 * already parsed, by the rules of createBarListCollector, read as createBarListParser
 * reads a stream (the import route streams its body: readBarList). Throws a
 * ValidationError (422) listing each issue with its place: `bars.3.grossOz` in JSON,
 * `line.12.grossOz` in CSV (the file's line, header = 1), at most 200 issues and a count
 * of the rest; invalid JSON is a MalformedJsonError (400).
 *
 * ```ts
 * const list = parseBarList({ format: 'value', value: { vault: 'LDN-1', asOf: '2026-11-30', bars } })
 * ```
 */
export function parseBarList(p: ParseBarListParameters): ParseBarListReturnType {
  if (p.format === 'value') {
    const collector = createBarListCollector({ place: 'bars', now: p.now })
    const bars = typeof p.value === 'object' && p.value !== null ? (p.value as { bars?: unknown }).bars : undefined
    if (Array.isArray(bars))
      for (const [index, value] of bars.entries()) collector.add({ place: `bars.${index}`, at: index, value })
    return collector.finish(p.value)
  }
  const parser = createBarListParser(p)
  parser.push(p.text)
  return parser.end()
}
