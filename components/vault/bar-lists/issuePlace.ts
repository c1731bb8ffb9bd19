/** The field names of a bar list, as a person reads them. */
const FIELD_WORDS: Record<string, string> = {
  serial: 'serial',
  refiner: 'refiner',
  grossOz: 'gross oz',
  fineness: 'fineness',
  fineOz: 'fine oz',
  year: 'year',
  vault: 'vault',
  asOf: 'as of',
  header: 'header',
}

/**
 * Where an import issue is, in words: `line.2.fineness` -> "line 2, fineness" (a CSV line, the header is line 1),
 * `bars.3.grossOz` -> "bar 4, gross oz" (JSON, counted from 1), '' -> "the list".
 */
export function issuePlace(path: string): string {
  if (path === '') return 'the list'
  const [head, index, ...rest] = path.split('.')
  const field = rest.map((f) => FIELD_WORDS[f] ?? f).join(' ')
  const n = Number(index)
  if (head === 'line' && Number.isInteger(n)) return field ? `line ${n}, ${field}` : `line ${n}`
  if (head === 'bars' && Number.isInteger(n)) return field ? `bar ${n + 1}, ${field}` : `bar ${n + 1}`
  return path
    .split('.')
    .map((f) => FIELD_WORDS[f] ?? f)
    .join(', ')
}
