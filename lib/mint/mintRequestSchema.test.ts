import { describe, expect, it } from 'vitest'
import { type MintRequestInput, mintRequestSchema } from './mintRequestSchema'

const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function validRequest(): MintRequestInput {
  return {
    to: CHECKSUMMED,
    amount: '802.168',
    vaultProof: {
      vault: 'LDN-1',
      receiptRef: 'VR-2026-000123',
      documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      bars: [
        {
          serial: 'AB123456',
          refiner: 'Valcambi SA',
          year: 2025,
          grossOz: '401.125',
          fineness: '999.9',
          fineOz: '401.084',
        },
        {
          serial: 'AB123457',
          refiner: 'Valcambi SA',
          year: 2025,
          grossOz: '401.125',
          fineness: '999.9',
          fineOz: '401.084',
        },
      ],
    },
  }
}

/** the request as JSON-like data, edited loosely: each case breaks one field at any depth */
// biome-ignore lint/suspicious/noExplicitAny: a case reaches any field of the untyped input
type LooseRequest = Record<string, any>

/** A valid request with one change applied. */
function withChange(change: (r: LooseRequest) => void): unknown {
  const r = structuredClone(validRequest()) as LooseRequest
  change(r)
  return r
}

function issuesOf(input: unknown): { path: string; message: string }[] {
  const result = mintRequestSchema.safeParse(input)
  if (result.success) return []
  return result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
}

function pathsOf(input: unknown): string[] {
  return issuesOf(input).map((i) => i.path)
}

describe('mintRequestSchema: a valid request', () => {
  it('accepts bars named by serial and refiner only (the bar list supplies the rest); amount then unchecked here', () => {
    const r = withChange((x) => {
      x.amount = '1.000'
      x.vaultProof.bars = x.vaultProof.bars.map((b: { serial: string; refiner: string }) => ({
        serial: b.serial,
        refiner: b.refiner,
      }))
    })
    expect(mintRequestSchema.safeParse(r).success).toBe(true)
    // one bar without its fine weight is enough to leave the sum to the server
    expect(
      pathsOf(
        withChange((x) => {
          x.amount = '1.000'
          delete x.vaultProof.bars[0].fineOz
        }),
      ),
    ).toEqual([])
    // given fields are still checked, and so is fineOz against grossOz x fineness
    expect(
      pathsOf(
        withChange((x) => {
          delete x.vaultProof.bars[0].year
          x.vaultProof.bars[0].fineOz = '401.085'
        }),
      ),
    ).toEqual(['vaultProof.bars.0.fineOz', 'amount'])
  })

  it('accepts the docs/api.md example', () => {
    const result = mintRequestSchema.safeParse(validRequest())
    expect(result.success).toBe(true)
  })

  it('normalises: checksummed address, tidied text, lowercase digest', () => {
    const out = mintRequestSchema.parse(
      withChange((r) => {
        r.to = CHECKSUMMED.toLowerCase()
        r.vaultProof.vault = '  LDN-1 '
        r.vaultProof.bars[0].refiner = 'Valcambi\u00a0  SA'
        r.vaultProof.documentSha256 = r.vaultProof.documentSha256.toUpperCase()
      }),
    )
    expect(out.to).toBe(CHECKSUMMED)
    expect(out.vaultProof.vault).toBe('LDN-1')
    expect(out.vaultProof.bars[0]?.refiner).toBe('Valcambi SA')
    expect(out.vaultProof.documentSha256).toBe('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')
  })

  it('accepts an all-uppercase address (no checksum to check), 100 bars, year = this year', () => {
    const bars = Array.from({ length: 100 }, (_, i) => ({
      serial: `S${i}`,
      refiner: 'PAMP',
      year: new Date().getUTCFullYear(),
      grossOz: '1',
      fineness: '999.99',
      fineOz: '0.999',
    }))
    const result = mintRequestSchema.safeParse(
      withChange((r) => {
        r.to = `0x${CHECKSUMMED.slice(2).toUpperCase()}`
        r.amount = '99.9'
        r.vaultProof.bars = bars
      }),
    )
    expect(result.success).toBe(true)
  })

  it('accepts fineness at both ends of the range: 900.0 and 999.99', () => {
    expect(
      pathsOf(
        withChange((r) => {
          r.vaultProof.bars[0].fineness = '900.0'
          r.vaultProof.bars[0].fineOz = '361.012'
          r.vaultProof.bars[1].fineness = '999.99'
          r.vaultProof.bars[1].fineOz = '401.120'
          r.amount = '762.132'
        }),
      ),
    ).toEqual([])
  })
})

describe('mintRequestSchema: every rule has a failing example with its path', () => {
  const cases: [string, (r: LooseRequest) => void, string[]][] = [
    // to
    ['to missing', (r) => delete r.to, ['to']],
    ['to not a string', (r) => (r.to = 42), ['to']],
    ['to too short', (r) => (r.to = '0x1234'), ['to']],
    ['to without 0x', (r) => (r.to = CHECKSUMMED.slice(2)), ['to']],
    ['to with non-hex', (r) => (r.to = `0x${'g'.repeat(40)}`), ['to']],
    ['to with a bad checksum', (r) => (r.to = '0x70997970c51812dc3A010C7d01b50e0d17dc79C8'), ['to']],
    ['to the zero address', (r) => (r.to = `0x${'0'.repeat(40)}`), ['to']],
    // amount
    ['amount missing', (r) => delete r.amount, ['amount']],
    ['amount as a JSON number', (r) => (r.amount = 802.168), ['amount']],
    ['amount zero', (r) => (r.amount = '0'), ['amount']],
    ['amount with 4 decimals', (r) => (r.amount = '802.1680'), ['amount']],
    ['amount negative', (r) => (r.amount = '-802.168'), ['amount']],
    ['amount in exponent form', (r) => (r.amount = '8.02168e2'), ['amount']],
    ['amount with whitespace', (r) => (r.amount = ' 802.168'), ['amount']],
    ['amount not the sum of the bars', (r) => (r.amount = '802.167'), ['amount']],
    // bars count and duplicates
    ['no bars', (r) => (r.vaultProof.bars = []), ['vaultProof.bars']],
    ['bars not a list', (r) => (r.vaultProof.bars = {}), ['vaultProof.bars']],
    [
      '101 bars',
      (r) => {
        r.vaultProof.bars = Array.from({ length: 101 }, (_, i) => ({ ...r.vaultProof.bars[0], serial: `S${i}` }))
        r.amount = '40509.484'
      },
      ['vaultProof.bars'],
    ],
    ['the same bar twice', (r) => (r.vaultProof.bars[1].serial = 'AB123456'), ['vaultProof.bars.1.serial']],
    [
      'the same bar twice, other letter case',
      (r) => {
        r.vaultProof.bars[1].serial = 'ab123456'
        r.vaultProof.bars[1].refiner = 'VALCAMBI SA'
      },
      ['vaultProof.bars.1.serial'],
    ],
    // fine weight
    ['fineOz rounded up', (r) => (r.vaultProof.bars[0].fineOz = '401.085'), ['vaultProof.bars.0.fineOz', 'amount']],
    [
      'fineOz wrong but the amount matches it',
      (r) => {
        r.vaultProof.bars[1].fineOz = '401.085'
        r.amount = '802.169'
      },
      ['vaultProof.bars.1.fineOz'],
    ],
    [
      'a bar too light to have a fine weight',
      (r) => {
        r.vaultProof.bars[0].grossOz = '0.001'
        r.vaultProof.bars[0].fineness = '900'
        r.vaultProof.bars[0].fineOz = '0.000'
        r.amount = '401.084'
      },
      ['vaultProof.bars.0.fineOz'],
    ],
    ['fineOz with 4 decimals', (r) => (r.vaultProof.bars[0].fineOz = '401.0848'), ['vaultProof.bars.0.fineOz']],
    ['fineOz null', (r) => (r.vaultProof.bars[0].fineOz = null), ['vaultProof.bars.0.fineOz']],
    // serial and refiner must make bar keys: ASCII only (lib/vault/normalizeBarKey)
    [
      'serial with a Cyrillic look-alike',
      (r) => (r.vaultProof.bars[0].serial = '\u0410B123456'),
      ['vaultProof.bars.0.serial'],
    ],
    [
      'serial with fullwidth digits',
      (r) => (r.vaultProof.bars[0].serial = 'AB\uff11\uff12'),
      ['vaultProof.bars.0.serial'],
    ],
    [
      'refiner with a Greek look-alike',
      (r) => (r.vaultProof.bars[0].refiner = 'Valcambi S\u0391'),
      ['vaultProof.bars.0.refiner'],
    ],
    ['serial only dashes', (r) => (r.vaultProof.bars[0].serial = '--'), ['vaultProof.bars.0.serial']],
    [
      'the same bar twice, spelled with dashes and spaces',
      (r) => (r.vaultProof.bars[1].serial = 'ab-123 456'),
      ['vaultProof.bars.1.serial'],
    ],
    // fineness
    ['fineness below 900', (r) => (r.vaultProof.bars[0].fineness = '899.99'), ['vaultProof.bars.0.fineness']],
    ['fineness 1000', (r) => (r.vaultProof.bars[0].fineness = '1000'), ['vaultProof.bars.0.fineness']],
    ['fineness with 3 decimals', (r) => (r.vaultProof.bars[0].fineness = '999.999'), ['vaultProof.bars.0.fineness']],
    ['fineness as a number', (r) => (r.vaultProof.bars[0].fineness = 999.9), ['vaultProof.bars.0.fineness']],
    // gross
    ['grossOz zero', (r) => (r.vaultProof.bars[0].grossOz = '0'), ['vaultProof.bars.0.grossOz']],
    ['grossOz with 4 decimals', (r) => (r.vaultProof.bars[0].grossOz = '401.1250'), ['vaultProof.bars.0.grossOz']],
    ['grossOz absurdly heavy', (r) => (r.vaultProof.bars[0].grossOz = '1000.001'), ['vaultProof.bars.0.grossOz']],
    ['grossOz negative', (r) => (r.vaultProof.bars[0].grossOz = '-1'), ['vaultProof.bars.0.grossOz']],
    // year
    ['year before 1900', (r) => (r.vaultProof.bars[0].year = 1899), ['vaultProof.bars.0.year']],
    [
      'year in the future',
      (r) => (r.vaultProof.bars[0].year = new Date().getUTCFullYear() + 1),
      ['vaultProof.bars.0.year'],
    ],
    ['year not an integer', (r) => (r.vaultProof.bars[0].year = 2024.5), ['vaultProof.bars.0.year']],
    ['year as a string', (r) => (r.vaultProof.bars[0].year = '2025'), ['vaultProof.bars.0.year']],
    // digest
    ['documentSha256 63 chars', (r) => (r.vaultProof.documentSha256 = 'a'.repeat(63)), ['vaultProof.documentSha256']],
    ['documentSha256 non-hex', (r) => (r.vaultProof.documentSha256 = 'z'.repeat(64)), ['vaultProof.documentSha256']],
    // text fields
    ['vault empty', (r) => (r.vaultProof.vault = ''), ['vaultProof.vault']],
    ['vault only spaces', (r) => (r.vaultProof.vault = '   '), ['vaultProof.vault']],
    ['vault 65 chars', (r) => (r.vaultProof.vault = 'V'.repeat(65)), ['vaultProof.vault']],
    ['receiptRef with a newline', (r) => (r.vaultProof.receiptRef = 'VR\n1'), ['vaultProof.receiptRef']],
    ['serial with a NUL', (r) => (r.vaultProof.bars[0].serial = 'AB\u00001'), ['vaultProof.bars.0.serial']],
    [
      'refiner with a bidi override',
      (r) => (r.vaultProof.bars[0].refiner = 'Valcambi\u202e SA'),
      ['vaultProof.bars.0.refiner'],
    ],
    [
      'refiner with a zero-width space',
      (r) => (r.vaultProof.bars[0].refiner = 'Valcambi\u200bSA'),
      ['vaultProof.bars.0.refiner'],
    ],
    ['serial not a string', (r) => (r.vaultProof.bars[0].serial = 123456), ['vaultProof.bars.0.serial']],
    // strict objects
    ['unknown top-level key', (r) => (r.extra = 1), ['']],
    ['unknown vaultProof key', (r) => (r.vaultProof.extra = 1), ['vaultProof']],
    ['unknown bar key', (r) => (r.vaultProof.bars[0].weight = '1'), ['vaultProof.bars.0']],
    ['vaultProof missing', (r) => delete r.vaultProof, ['vaultProof']],
    ['a bar that is not an object', (r) => (r.vaultProof.bars[0] = null), ['vaultProof.bars.0']],
  ]

  it.each(cases)('%s', (_name, change, paths) => {
    const issues = issuesOf(withChange(change))
    expect(issues.map((i) => i.path)).toEqual(paths)
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(3)
  })

  it('uses human messages', () => {
    const issues = issuesOf(withChange((r) => (r.vaultProof.bars[0].fineOz = '401.085')))
    expect(issues[0]?.message).toBe(
      'must be 401.084: gross 401.125 oz x fineness 999.9 / 1000, rounded down to 0.001 oz',
    )
    expect(issuesOf(withChange((r) => delete r.to))[0]?.message).toBe('is required')
    expect(issuesOf(withChange((r) => (r.extra = 1)))[0]?.message).toBe('unknown field: extra')
  })

  it('reports every broken rule at once', () => {
    const paths = pathsOf(
      withChange((r) => {
        r.to = 'nope'
        r.vaultProof.bars[0].year = 1800
        r.vaultProof.bars[1].fineOz = '1'
      }),
    )
    expect(paths).toEqual(['to', 'vaultProof.bars.0.year', 'vaultProof.bars.1.fineOz', 'amount'])
  })

  it.each([
    ['__proto__ at the top', (j: string) => j.replace(/^\{/, '{"__proto__":{"polluted":true},'), ''],
    [
      'constructor in the proof',
      (j: string) => j.replace('"vaultProof":{', '"vaultProof":{"constructor":{"prototype":{"polluted":true}},'),
      'vaultProof',
    ],
    [
      '__proto__ in a bar',
      (j: string) => j.replace('"bars":[{', '"bars":[{"__proto__":{"polluted":true},'),
      'vaultProof.bars.0',
    ],
  ])('rejects prototype-pollution keys: %s', (_name, inject, path) => {
    // JSON.parse makes an own "__proto__" key, exactly as a request body would
    const input: unknown = JSON.parse(inject(JSON.stringify(validRequest())))
    const issues = issuesOf(input)
    expect(issues.map((i) => i.path)).toEqual([path])
    expect(issues[0]?.message).toMatch(/unknown field: (__proto__|constructor)/)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([null, 'a string', 42, [], true])('rejects a body that is not an object: %j', (body) => {
    expect(pathsOf(body)).toEqual([''])
  })
})
