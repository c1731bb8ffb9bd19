import { MalformedJsonError } from '@/lib/web/errors/request'

/**
 * Where a value too long to be read sits: a field's name, a field's value, one bar, or a top level
 * that is no object.
 */
export type JsonOversized =
  | { at: 'name' }
  | { at: 'field'; name: string }
  | { at: 'bar'; index: number }
  | { at: 'top' }

export type JsonBarListEvents = {
  /** a top-level field other than an array `bars`, its value parsed */
  field: (name: string, value: unknown) => void
  /** `bars` is an array: its elements follow, one `bar` each */
  barsStart: () => void
  /** one element of `bars`, parsed */
  bar: (index: number, value: unknown) => void
  /** the top level is a value, not an object */
  top: (value: unknown) => void
  /** a value longer than the limit: must throw (the reading stops there) */
  oversized: (where: JsonOversized) => never
}

export type CreateJsonBarListReaderParameters = {
  events: JsonBarListEvents
  /** characters of one value (a field's, a bar's, the top level's) */
  maxValueChars: number
  /** characters of a field's name */
  maxNameChars: number
}

export type JsonBarListReader = {
  /** reads the next piece of the text (any split) */
  push: (text: string) => void
  /** the text has ended: MalformedJsonError unless it was one whole JSON value */
  end: () => void
}

// where the reader is: before the value; in the object, expecting a name or `}` (first),
// a name (after a comma), the colon, the value; after a value, `,` or `}`; in `bars`,
// expecting an element or `]` (first), an element (after a comma), `,` or `]`; after the end
type State = 'top' | 'nameOrEnd' | 'name' | 'colon' | 'value' | 'fieldNext' | 'barOrEnd' | 'bar' | 'barNext' | 'after'
type Capture = {
  for: 'name' | 'field' | 'bar' | 'top'
  kind: 'string' | 'nested' | 'scalar'
  parts: string[]
  length: number
  depth: number
  inString: boolean
  escape: boolean
  done: boolean
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const LBRACE = 0x7b
const RBRACE = 0x7d
const LBRACKET = 0x5b
const RBRACKET = 0x5d
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
/** the characters of a number, true, false or null */
const isScalar = (c: number) =>
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  c === 0x2d ||
  c === 0x2b ||
  c === 0x2e
const startsScalar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x74 || c === 0x66 || c === 0x6e

/**
 * A bar list's JSON, `{ "vault": ..., "asOf": ..., "bars": [ {...}, ... ] }`, read as it
 * arrives: the top-level object and the `bars` array are walked character by character,
 * and each value inside them (a field's value, one bar) is gathered on its own, at most
 * `maxValueChars`, then handed to JSON.parse, so the list is never held as text or as one
 * parsed tree, and a bar is reported as soon as it is complete. Anything that is not JSON
 * throws MalformedJsonError where it is found; nothing after it is read.
 *
 * ```ts
 * const reader = createJsonBarListReader({ events, maxValueChars: 4_096, maxNameChars: 256 })
 * reader.push('{"vault":"LDN-1","bars":[{"serial":')
 * reader.push('"A1", ...}]}')
 * reader.end()
 * ```
 */
export function createJsonBarListReader({
  events,
  maxValueChars,
  maxNameChars,
}: CreateJsonBarListReaderParameters): JsonBarListReader {
  let state: State = 'top'
  let name = ''
  let index = 0
  let capture: Capture | null = null

  const malformed = (what: string): never => {
    throw new MalformedJsonError({ cause: new Error(`bar list JSON: ${what}`) })
  }

  const start = (forWhat: Capture['for'], c: number) => {
    const kind = c === QUOTE ? 'string' : c === LBRACE || c === LBRACKET ? 'nested' : 'scalar'
    if (kind === 'scalar' && !startsScalar(c))
      malformed(`unexpected character ${JSON.stringify(String.fromCharCode(c))}`)
    capture = { for: forWhat, kind, parts: [], length: 0, depth: 0, inString: false, escape: false, done: false }
  }

  /** gathers the capture's characters from text[i]; returns where it stopped */
  const gather = (cap: Capture, text: string, i: number): number => {
    const from = i
    const n = text.length
    if (cap.kind === 'scalar') {
      while (i < n && isScalar(text.charCodeAt(i))) i++
      if (i < n) cap.done = true
    } else {
      while (i < n) {
        const c = text.charCodeAt(i++)
        if (cap.inString) {
          if (cap.escape) cap.escape = false
          else if (c === BACKSLASH) cap.escape = true
          else if (c === QUOTE) {
            cap.inString = false
            if (cap.kind === 'string') {
              cap.done = true
              break
            }
          }
        } else if (c === QUOTE) cap.inString = true
        else if (c === LBRACE || c === LBRACKET) cap.depth++
        else if (c === RBRACE || c === RBRACKET) {
          cap.depth--
          if (cap.depth <= 0) {
            cap.done = true
            break
          }
        }
      }
    }
    cap.length += i - from
    const max = cap.for === 'name' ? maxNameChars : maxValueChars
    if (cap.length > max) {
      if (cap.for === 'name') events.oversized({ at: 'name' })
      if (cap.for === 'field') events.oversized({ at: 'field', name })
      if (cap.for === 'bar') events.oversized({ at: 'bar', index })
      events.oversized({ at: 'top' })
    }
    cap.parts.push(text.slice(from, i))
    return i
  }

  const finish = (cap: Capture) => {
    capture = null
    let value: unknown
    try {
      value = JSON.parse(cap.parts.join(''))
    } catch (cause) {
      throw new MalformedJsonError({ cause })
    }
    if (cap.for === 'name') {
      name = value as string // a JSON string: it began with a quote and parsed
      state = 'colon'
    } else if (cap.for === 'field') {
      events.field(name, value)
      state = 'fieldNext'
    } else if (cap.for === 'bar') {
      events.bar(index++, value)
      state = 'barNext'
    } else {
      events.top(value)
      state = 'after'
    }
  }

  return {
    push(text) {
      let i = 0
      const n = text.length
      while (i < n) {
        if (capture) {
          i = gather(capture, text, i)
          if (capture.done) finish(capture)
          continue
        }
        const c = text.charCodeAt(i)
        if (isSpace(c)) {
          i++
          continue
        }
        switch (state) {
          case 'top':
            if (c === LBRACE) {
              state = 'nameOrEnd'
              i++
            } else start('top', c)
            break
          case 'nameOrEnd':
          case 'name':
            if (c === RBRACE && state === 'nameOrEnd') {
              state = 'after'
              i++
            } else if (c === QUOTE) start('name', c)
            else malformed('a field name must be a string')
            break
          case 'colon':
            if (c !== COLON) malformed('a colon must follow a field name')
            state = 'value'
            i++
            break
          case 'value':
            if (name === 'bars' && c === LBRACKET) {
              events.barsStart()
              state = 'barOrEnd'
              i++
            } else start('field', c)
            break
          case 'fieldNext':
            if (c === COMMA) state = 'name'
            else if (c === RBRACE) state = 'after'
            else malformed('a comma or } must follow a value')
            i++
            break
          case 'barOrEnd':
          case 'bar':
            if (c === RBRACKET && state === 'barOrEnd') {
              state = 'fieldNext'
              i++
            } else if (c === RBRACKET || c === COMMA) malformed('a value must follow a comma')
            else start('bar', c)
            break
          case 'barNext':
            if (c === COMMA) state = 'bar'
            else if (c === RBRACKET) state = 'fieldNext'
            else malformed('a comma or ] must follow a bar')
            i++
            break
          case 'after':
            malformed('text after the end')
        }
      }
    },
    end() {
      if (capture?.kind === 'scalar' && capture.for === 'top') finish(capture)
      if (state !== 'after') malformed('the text ends before the list does')
    },
  }
}
