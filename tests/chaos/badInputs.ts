import fc from 'fast-check'
import { errorStatus } from '@/lib/errors/http'
import { mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'

/**
 * Adversarial bodies for POST /api/gold/mint (fast-check). Every generated request is
 * INVALID by construction (a valid one is filtered out), so the API must answer a 4xx in
 * docs/api.md's error shape and write nothing. Shared by the short form (the real route handler
 * in vitest) and the long form (the real HTTP server, during the chaos).
 */

export type BadRequest = {
  /** what was done to the body, for a failure message */
  kind: string
  contentType: string | null
  body: string | Uint8Array
  headers?: Record<string, string>
}

export const MAX_BODY_BYTES = 64 * 1024
const JSON_TYPE = 'application/json'

const XSS = [
  '<script>window.__xss=1</script>',
  '"><img src=x onerror=alert(1)>',
  "'; drop table mint_orders; --",
  '{{7*7}}',
  '${process.env.AUTH_SECRET}',
]
const NUMERIC_TEXT = [
  '0',
  '-1',
  '-0',
  '1e3',
  '1E-3',
  '0x10',
  ' 1',
  '1 ',
  '1,000',
  '1_000',
  '+5',
  '.5',
  '5.',
  'NaN',
  'Infinity',
  '-Infinity',
  '１２３',
  '٣',
  '1.2.3',
  '',
  '9'.repeat(400),
  `1.${'1'.repeat(200)}`,
  '401.0840',
  '401.1234',
  '1e308',
  '0.0001',
  '999.999',
  '1000.01',
  '899.99',
  '0.000',
]
const CONTROL = [
  '\u0000',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200e',
  '\u202e',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\uffff',
  '\ue000',
]
const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
]

/** Numbers a JSON parser or a bigint conversion can choke on. */
const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 5e-324, 2 ** 53, 1.5, 2025.5, -2025, 0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
)

/** Strings with what a text field must refuse or survive. */
const nastyString = fc.oneof(
  fc.constantFrom(...XSS, ...NUMERIC_TEXT, ...CONTROL.map((c) => `AB${c}12`), ...PROTO_KEYS),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ minLength: 65, maxLength: 3000 }),
  fc.constantFrom(...CONTROL).map((c) => c.repeat(3)),
  fc.constantFrom(
    '\u0301'.repeat(70),
    'e\u0301'.repeat(40),
    '👨‍👩‍👧‍👦'.repeat(20),
    'Ω'.repeat(65),
    ' '.repeat(10),
    'a'.repeat(65),
  ),
)

/** Nested arrays/objects up to `depth`, for "deep nesting" inside an otherwise fine body. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let v = leaf
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v }
  return v
}

/** An object with an OWN property named like a prototype key (JSON.stringify writes it). */
function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...target }
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true })
  return copy
}

const adversarialValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: hugeNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [[]], [null], { length: 1e9 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 2000 }).map((d) => nested(d)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...PROTO_KEYS).map((k) => withOwnKey({}, k, { isAdmin: true, polluted: 'yes' })),
  },
  {
    weight: 1,
    arbitrary: fc.anything({
      maxDepth: 3,
      withBigInt: false,
      withBoxedValues: false,
      withMap: false,
      withSet: false,
      withTypedArray: false,
      withSparseArray: false,
    }),
  },
)

type Json = Record<string, unknown>

/** The paths into a valid request that a mutation can hit. */
const PATHS: (string | number)[][] = [
  [],
  ['to'],
  ['amount'],
  ['vaultProof'],
  ['vaultProof', 'vault'],
  ['vaultProof', 'receiptRef'],
  ['vaultProof', 'documentSha256'],
  ['vaultProof', 'bars'],
  ['vaultProof', 'bars', 0],
  ['vaultProof', 'bars', 0, 'serial'],
  ['vaultProof', 'bars', 0, 'refiner'],
  ['vaultProof', 'bars', 0, 'year'],
  ['vaultProof', 'bars', 0, 'grossOz'],
  ['vaultProof', 'bars', 0, 'fineness'],
  ['vaultProof', 'bars', 0, 'fineOz'],
  ['vaultProof', 'bars', 1],
  ['vaultProof', 'bars', 1, 'fineOz'],
]

type Mutation =
  | { op: 'set'; path: (string | number)[]; value: unknown }
  | { op: 'delete'; path: (string | number)[] }
  | { op: 'addKey'; path: (string | number)[]; key: string; value: unknown }
  | { op: 'barCount'; count: number }
  | { op: 'duplicateBar' }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant('set' as const), path: fc.constantFrom(...PATHS), value: adversarialValue }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      path: fc.constantFrom(...PATHS.filter((p) => p.length > 0)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('addKey' as const),
      path: fc.constantFrom<(string | number)[]>([], ['vaultProof'], ['vaultProof', 'bars', 0]),
      key: fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ minLength: 1, maxLength: 20 })),
      value: adversarialValue,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('barCount' as const),
      count: fc.oneof(fc.constant(0), fc.integer({ min: 101, max: 400 })),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'duplicateBar' as const }) },
)

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T
}

function apply(base: Json, m: Mutation): unknown {
  const root = clone(base) as unknown
  const parentOf = (
    path: (string | number)[],
  ): { parent: Record<string | number, unknown> | undefined; last: string | number | undefined } => {
    let cur: unknown = root
    for (const seg of path.slice(0, -1)) {
      if (typeof cur !== 'object' || cur === null) return { parent: undefined, last: undefined }
      cur = (cur as Record<string | number, unknown>)[seg]
    }
    return typeof cur === 'object' && cur !== null
      ? { parent: cur as Record<string | number, unknown>, last: path[path.length - 1] }
      : { parent: undefined, last: undefined }
  }
  const proof = (root as Json).vaultProof
  const bars = (): unknown[] | undefined => {
    const list = typeof proof === 'object' && proof !== null ? (proof as Json).bars : undefined
    return Array.isArray(list) && list.length > 0 ? list : undefined
  }
  switch (m.op) {
    case 'set': {
      if (m.path.length === 0) return m.value
      const { parent, last } = parentOf(m.path)
      if (parent && last !== undefined) parent[last] = m.value
      return root
    }
    case 'delete': {
      const { parent, last } = parentOf(m.path)
      if (parent && last !== undefined) {
        if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1)
        else delete parent[last]
      }
      return root
    }
    case 'addKey': {
      if (m.path.length === 0) return withOwnKey(root as Json, m.key, m.value)
      const { parent, last } = parentOf(m.path)
      if (parent && last !== undefined && typeof parent[last] === 'object' && parent[last] !== null) {
        parent[last] = withOwnKey(parent[last] as Json, m.key, m.value)
      }
      return root
    }
    case 'barCount': {
      const list = bars()
      if (!list) return root
      const one = list[0]
      ;(proof as Json).bars = Array.from({ length: m.count }, (_, i) =>
        typeof one === 'object' && one !== null
          ? { ...(one as Json), serial: `${String((one as Json).serial)}-${i}` }
          : one,
      )
      return root
    }
    case 'duplicateBar': {
      const list = bars()
      if (list) list.push(clone(list[0]))
      return root
    }
  }
}

let uniq = 0
/** A valid two-bar request with serials unique to this process (the base every mutation starts from). */
export function validBase(prefix = 'FZ'): Json {
  const id = `${prefix}-${process.pid}-${Date.now().toString(36)}-${uniq++}`.toUpperCase()
  return buildMintRequest({
    bars: [{ serial: `${id}-A` }, { serial: `${id}-B`, grossOz: '400.000', fineness: '999.5' }],
  }) as unknown as Json
}

function jsonText(value: unknown): string {
  // JSON.stringify drops undefined and functions at the top: fall back to a literal
  const text = JSON.stringify(value)
  return text === undefined ? 'undefined' : text
}

const mutatedBody: fc.Arbitrary<BadRequest> = fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => {
  let value: unknown = validBase()
  for (const m of ms)
    value = typeof value === 'object' && value !== null && !Array.isArray(value) ? apply(value as Json, m) : value
  return {
    kind: `mutated: ${ms.map((m) => `${m.op}${'path' in m ? ` ${m.path.join('.')}` : ''}${m.op === 'addKey' ? ` +${m.key}` : ''}`).join(', ')}`,
    contentType: JSON_TYPE,
    body: jsonText(value),
  }
})

const notJson: fc.Arbitrary<BadRequest> = fc
  .oneof(
    fc.constantFrom(
      '{',
      '[',
      '{"to":',
      'undefined',
      "{'to': 1}",
      'NaN',
      '',
      ' ',
      '\n',
      '\ufeff{}',
      '{"a":1,}',
      '{"a":1}{"b":2}',
      '/* */{}',
      'to=0x1&amount=1',
      '<xml/>',
      '\u0000',
    ),
    fc.string({ maxLength: 200 }).filter((s) => {
      try {
        JSON.parse(s)
        return false
      } catch {
        return true
      }
    }),
  )
  .map((body) => ({ kind: 'not JSON', contentType: JSON_TYPE, body }))

const badUtf8: fc.Arbitrary<BadRequest> = fc
  .constantFrom(
    [0xff, 0xfe],
    [0xc0, 0xaf],
    [0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
    [0xe2, 0x82],
    [0x22, 0x80, 0x22],
  )
  .map((bytes) => ({ kind: 'invalid UTF-8', contentType: JSON_TYPE, body: new Uint8Array(bytes) }))

const deepNesting: fc.Arbitrary<BadRequest> = fc
  .tuple(fc.integer({ min: 500, max: 30_000 }), fc.boolean())
  .map(([depth, arrays]) => ({
    kind: `deep nesting: ${depth} levels`,
    contentType: JSON_TYPE,
    body: arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  }))

const oversize: fc.Arbitrary<BadRequest> = fc
  .tuple(
    fc.integer({ min: MAX_BODY_BYTES - 200, max: MAX_BODY_BYTES * 4 }),
    fc.constantFrom('vault', 'padding', 'bars'),
  )
  .map(([size, how]) => {
    const base = validBase('OV')
    let body: string
    if (how === 'vault')
      body = jsonText({ ...base, vaultProof: { ...(base.vaultProof as Json), vault: 'x'.repeat(size) } })
    else if (how === 'padding') body = jsonText(base) + ' '.repeat(size)
    else {
      const bar = ((base.vaultProof as Json).bars as Json[])[0]
      const count = Math.ceil(size / 150)
      body = jsonText({
        ...base,
        vaultProof: {
          ...(base.vaultProof as Json),
          bars: Array.from({ length: count }, (_, i) => ({ ...bar, serial: `S${i}` })),
        },
      })
    }
    return { kind: `oversize: ${how}, ${body.length} bytes`, contentType: JSON_TYPE, body }
  })

const wrongContentType: fc.Arbitrary<BadRequest> = fc
  .constantFrom(
    null,
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json-patch+json',
    'application/jsonp',
    'text/json',
    'application/xml',
    '*/*',
    'json',
    '',
  )
  .map((contentType) => ({
    kind: `wrong content type: ${JSON.stringify(contentType)}`,
    contentType,
    body: jsonText(validBase('CT')),
  }))

/** Every kind of bad request, weighted towards the structured mutations. */
export const badRequest: fc.Arbitrary<BadRequest> = fc
  .oneof(
    { weight: 10, arbitrary: mutatedBody },
    { weight: 2, arbitrary: notJson },
    { weight: 1, arbitrary: badUtf8 },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: oversize },
    { weight: 2, arbitrary: wrongContentType },
  )
  .filter((r) => !wouldBeAccepted(r))

/** Whether the API would accept this request (those are not bad input, so they are not generated). */
export function wouldBeAccepted(r: BadRequest): boolean {
  if (r.contentType === null || !/^application\/json\s*(;\s*charset="?utf-?8"?\s*)?$/i.test(r.contentType.trim()))
    return false
  const bytes = typeof r.body === 'string' ? Buffer.byteLength(r.body) : r.body.byteLength
  if (bytes > MAX_BODY_BYTES) return false
  try {
    const text = typeof r.body === 'string' ? r.body : new TextDecoder('utf-8', { fatal: true }).decode(r.body)
    return mintRequestSchema.safeParse(JSON.parse(text)).success
  } catch {
    return false
  }
}

/** The statuses bad input may get from POST /api/gold/mint (with a valid session and origin). */
export const BAD_INPUT_STATUSES = new Set([400, 413, 415, 422])

const LEAKS = [
  /\n\s+at \S/,
  /node_modules/,
  /\.tsx?:\d+/,
  /\binsert into\b/i,
  /\bselect\b.+\bfrom\b/i,
  /ZodError/,
  /postgres:\/\//,
  /\bstack\b"?\s*:/,
]

/**
 * docs/api.md's error shape, exactly: `{ error: { code, message, issues? } }`, the code one of
 * the error table's with its status, issues `[{ path, message }]`, and no stack trace,
 * SQL or connection string. Returns what is wrong (empty when right).
 */
export function errorShapeProblems(status: number, contentType: string | null, text: string): string[] {
  const problems: string[] = []
  if (!/^application\/json/i.test(contentType ?? '')) problems.push(`content-type ${contentType}`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return [...problems, `body is not JSON: ${text.slice(0, 200)}`]
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [...problems, 'body is not an object']
  const keys = Object.keys(body)
  if (keys.length !== 1 || keys[0] !== 'error') problems.push(`top-level keys ${JSON.stringify(keys)}`)
  const error = (body as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return [...problems, 'no error object']
  const e = error as Record<string, unknown>
  const extra = Object.keys(e).filter((k) => !['code', 'message', 'issues'].includes(k))
  if (extra.length) problems.push(`unexpected error keys ${extra.join(', ')}`)
  if (typeof e.code !== 'string' || !Object.hasOwn(errorStatus, e.code)) problems.push(`unknown code ${String(e.code)}`)
  else if (errorStatus[e.code as keyof typeof errorStatus] !== status)
    problems.push(`code ${e.code} with status ${status}`)
  if (typeof e.message !== 'string' || e.message.length === 0) problems.push('no message')
  if (e.issues !== undefined) {
    if (!Array.isArray(e.issues) || e.issues.length === 0) problems.push('issues is not a non-empty list')
    else
      for (const issue of e.issues as unknown[]) {
        const i = issue as Record<string, unknown>
        if (
          typeof i !== 'object' ||
          i === null ||
          typeof i.path !== 'string' ||
          typeof i.message !== 'string' ||
          Object.keys(i).length !== 2
        ) {
          problems.push(`malformed issue ${JSON.stringify(issue).slice(0, 200)}`)
          break
        }
      }
  }
  for (const leak of LEAKS) if (leak.test(text)) problems.push(`leaks internals (${leak}): ${text.slice(0, 300)}`)
  return problems
}

/** Request headers for a bad request. */
export function headersOf(r: BadRequest): Record<string, string> {
  return { ...(r.contentType === null ? {} : { 'content-type': r.contentType }), ...(r.headers ?? {}) }
}
