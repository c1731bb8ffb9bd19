import { readFileSync } from 'node:fs'

/**
 * Junk bar lists of exactly the import's cap (20 MiB: not refused by size, so the parser
 * has to deal with them), for tests/release/standalone.int.test.ts, which posts them to
 * the web as shipped (NODE_OPTIONS --max-old-space-size=160 from the Dockerfile). Each is
 * what once cost the web hundreds of MiB of heap: every row built before any was checked.
 */

const CAP = 20 * 1024 * 1024
const HEADER = 'serial,refiner,year,grossOz,fineness\n'
const JSON_HEAD = '{"vault":"REL-JUNK","asOf":"2026-01-01T00:00:00Z","bars":['

export type JunkBarList = {
  name: string
  type: 'text/csv' | 'application/json'
  body: Uint8Array<ArrayBuffer>
  /** the answer it must get: status and code */
  expect: { status: number; code: string }
}

/** `unit` repeated after `head` and before `tail` up to exactly 20 MiB (`fill` pads the gap). */
function filled(head: string, unit: string, tail = '', fill = ' '): Uint8Array<ArrayBuffer> {
  const room = CAP - head.length - tail.length
  const count = Math.floor(room / unit.length)
  return new TextEncoder().encode(head + unit.repeat(count) + fill.repeat(room - count * unit.length) + tail)
}

export function junkBarLists(): JunkBarList[] {
  const invalid = { status: 422, code: 'validation_failed' }
  return [
    // the review's case: lines of `a`, under the real header, then without one
    { name: 'CSV: the header, then 10 M lines of "a"', type: 'text/csv', body: filled(HEADER, 'a\n'), expect: invalid },
    { name: 'CSV: 10 M lines of "a", no header', type: 'text/csv', body: filled('', 'a\n'), expect: invalid },
    { name: 'CSV: one line of 20 MiB', type: 'text/csv', body: filled(HEADER, 'x'), expect: invalid },
    {
      name: 'JSON: 7 M empty bars',
      type: 'application/json',
      body: filled(JSON_HEAD, '{},', '{}]}'),
      expect: invalid,
    },
    { name: 'JSON: 20 MiB of nested arrays', type: 'application/json', body: filled('', '['), expect: invalid },
    {
      name: 'JSON: one bar of 20 MiB',
      type: 'application/json',
      body: filled(`${JSON_HEAD}{"serial":"`, 'a', '"}]}'),
      expect: invalid,
    },
    {
      name: 'JSON: 20 MiB that is not JSON',
      type: 'application/json',
      body: filled('', 'x'),
      expect: { status: 400, code: 'malformed_json' },
    },
  ]
}

/** A process's peak and current resident memory in MiB (Linux /proc), or null elsewhere. */
export function residentMiB(pid: number | undefined): { peak: number; now: number } | null {
  if (pid === undefined) return null
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
    return { peak: Math.round(kib('VmHWM') / 1024), now: Math.round(kib('VmRSS') / 1024) }
  } catch {
    return null
  }
}
