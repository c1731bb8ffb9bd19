/** One CSV record and the line (1-based) it starts on, or a record that cannot be read. */
export type CsvItem = { line: number; fields: string[] } | { line: number; problem: string }

export type CreateCsvReaderParameters = {
  /** called with each record as soon as it is complete; a throw stops the reading there */
  onItem: (item: CsvItem) => void
  /** characters of one record at most (its quoted line breaks included): past them, a problem */
  maxRecordChars: number
}

export type CsvReader = {
  /** reads the next piece of the text (any split: a record may span pieces) */
  push: (text: string) => void
  /** the text has ended: the last record, or the problem of a quote left open */
  end: () => void
}

// one state per place in a record: a field's start, inside an unquoted or a quoted field,
// just after a quote inside a quoted field (a doubled quote, or the field's end), after a
// closed quoted field (only spaces until the separator)
type Mode = 'start' | 'unquoted' | 'quoted' | 'quote' | 'closed'

const COMMA = 0x2c
const QUOTE = 0x22
const LF = 0x0a
const CR = 0x0d
const SPACE = 0x20
const TAB = 0x09
const BOM = 0xfeff

/**
 * RFC 4180 CSV, read as it arrives: comma-separated, fields optionally in double quotes
 * (a quote inside is doubled, a quoted field may hold commas and line breaks), CRLF, LF
 * or CR line ends, a UTF-8 BOM ignored, blank lines skipped, unquoted fields trimmed.
 * Only the record being read is held; each complete one goes to `onItem`. A record that
 * cannot be read (a quote never closed, text after a closing quote, more than
 * `maxRecordChars`) is a `problem` item, and nothing after it is read.
 *
 * ```ts
 * const reader = createCsvReader({ onItem: (item) => items.push(item), maxRecordChars: 4_096 })
 * reader.push('serial,refiner\nAB1,"Valcambi')
 * reader.push(' SA"\n')
 * reader.end() // items: { line: 1, fields: ['serial', 'refiner'] }, { line: 2, fields: ['AB1', 'Valcambi SA'] }
 * ```
 */
export function createCsvReader({ onItem, maxRecordChars }: CreateCsvReaderParameters): CsvReader {
  let first = true
  let stopped = false
  let line = 1
  let recordLine = 1
  let recordChars = 0
  let fields: string[] = []
  let field = ''
  let mode: Mode = 'start'
  /** a CR ended the last line: an LF right after it belongs to the same line end */
  let afterCr = false

  const problem = (at: number, message: string) => {
    stopped = true
    onItem({ line: at, problem: message })
  }
  const endField = (value: string) => {
    fields.push(value)
    field = ''
    mode = 'start'
  }
  const endRecord = () => {
    const done = fields
    const at = recordLine
    fields = []
    recordChars = 0
    line++
    recordLine = line
    if (done.length === 1 && done[0] === '') return // a blank line
    onItem({ line: at, fields: done })
  }

  return {
    push(text) {
      if (stopped) return
      let i = 0
      const n = text.length
      if (first && n > 0) {
        first = false
        if (text.charCodeAt(0) === BOM) i = 1
      }
      while (i < n && !stopped) {
        const c = text.charCodeAt(i)
        if (afterCr) {
          afterCr = false
          if (c === LF) {
            i++
            continue
          }
        }
        if (mode === 'start') {
          if (c === QUOTE) {
            mode = 'quoted'
            i++
            recordChars++
            continue
          }
          mode = 'unquoted'
        }
        if (mode === 'unquoted') {
          // the run up to the next separator or line end, at once
          let j = i
          while (j < n) {
            const d = text.charCodeAt(j)
            if (d === COMMA || d === LF || d === CR) break
            j++
          }
          field += text.slice(i, j)
          recordChars += j - i
          i = j
          if (recordChars > maxRecordChars) return problem(recordLine, `is longer than ${chars(maxRecordChars)}`)
          if (i === n) break
          const d = text.charCodeAt(i++)
          recordChars++
          endField(field.trim())
          if (d !== COMMA) {
            afterCr = d === CR
            endRecord()
          }
          continue
        }
        recordChars++
        if (recordChars > maxRecordChars) return problem(recordLine, `is longer than ${chars(maxRecordChars)}`)
        i++
        if (mode === 'quoted') {
          if (c === QUOTE) mode = 'quote'
          else {
            if (c === LF) line++
            field += String.fromCharCode(c)
          }
        } else if (mode === 'quote') {
          if (c === QUOTE) {
            field += '"'
            mode = 'quoted'
          } else {
            mode = 'closed'
            i-- // this character is the first after the closed field
            recordChars--
          }
        } else if (c === COMMA) endField(field)
        else if (c === LF || c === CR) {
          endField(field)
          afterCr = c === CR
          endRecord()
        } else if (c !== SPACE && c !== TAB) return problem(line, 'unexpected text after a closing quote')
      }
    },
    end() {
      if (stopped) return
      if (mode === 'quoted') return problem(recordLine, 'a quoted field is never closed')
      if (fields.length === 0 && mode === 'start') return
      endField(mode === 'unquoted' ? field.trim() : field)
      endRecord()
    },
  }
}

function chars(n: number): string {
  return `${n.toLocaleString('en')} characters`
}
