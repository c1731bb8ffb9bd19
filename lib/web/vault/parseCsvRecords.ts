/** One CSV record and the line (1-based) it starts on. */
export type CsvRecord = { line: number; fields: string[] }

export type ParseCsvRecordsReturnType = { records: CsvRecord[]; problems: { line: number; message: string }[] }

/**
 * RFC 4180 CSV: comma-separated, fields optionally in double quotes (a quote inside is
 * doubled, a quoted field may hold commas and line breaks), CRLF or LF line ends, a
 * UTF-8 BOM ignored, blank lines skipped. Unquoted fields are trimmed. Pure; one pass.
 */
export function parseCsvRecords(text: string): ParseCsvRecordsReturnType {
  const records: CsvRecord[] = []
  const problems: { line: number; message: string }[] = []
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 1
  const n = text.length
  while (i < n) {
    const start = line
    const fields: string[] = []
    let ended = false
    while (!ended) {
      let value = ''
      if (text[i] === '"') {
        i++
        let closed = false
        while (i < n) {
          const c = text[i]
          if (c === '"') {
            if (text[i + 1] === '"') {
              value += '"'
              i += 2
              continue
            }
            i++
            closed = true
            break
          }
          if (c === '\n') line++
          value += c
          i++
        }
        if (!closed) problems.push({ line: start, message: 'a quoted field is never closed' })
        // only spaces may follow the closing quote before the separator
        while (i < n && (text[i] === ' ' || text[i] === '\t')) i++
        if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
          problems.push({ line, message: 'unexpected text after a closing quote' })
          while (i < n && text[i] !== ',' && text[i] !== '\n') i++
        }
      } else {
        const from = i
        while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i++
        value = text.slice(from, i).trim()
      }
      fields.push(value)
      if (i >= n) ended = true
      else if (text[i] === ',') i++
      else {
        if (text[i] === '\r') i++
        if (text[i] === '\n') i++
        line++
        ended = true
      }
    }
    if (fields.length === 1 && fields[0] === '') continue // a blank line
    records.push({ line: start, fields })
  }
  return { records, problems }
}
