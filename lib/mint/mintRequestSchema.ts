// first: the browser's zod must not probe for eval (a CSP violation) when the schemas below are built
import '@/lib/web/zodWithoutEval'
import { getAddress, zeroAddress } from 'viem'
import { z } from 'zod'
import { InvalidDecimalError } from '@/lib/errors/money'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import { barKey } from './barKey'
import { computeFineOz } from './computeFineOz'
import { currentYear, MINT_REQUEST_LIMITS } from './mintRequestLimits'

// The body of POST /api/gold/mint (docs/api.md). Pure and client-safe: the request form
// runs the very same rules before it sends. Every object is strict, so an unknown key
// (including `__proto__` or `constructor`) is a 422 naming the key, never a crash.
// Each issue carries a precise path (`vaultProof.bars.0.fineOz`) and a human message.

/** An error map for type errors: "is required" when absent, else what was expected. */
function expected(what: string) {
  return (issue: { input?: unknown; code?: string }) => {
    if (issue.code !== 'invalid_type') return undefined
    return issue.input === undefined ? 'is required' : `must be ${what}`
  }
}

function unknownKeys(issue: { code?: string; keys?: string[]; input?: unknown }) {
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
  }
  if (issue.code === 'invalid_type') return issue.input === undefined ? 'is required' : 'must be an object'
  return undefined
}

/**
 * Tries to parse a decimal; on failure adds an issue to the field and returns null.
 */
function decimalOrIssue(
  value: string,
  decimals: number,
  ctx: z.core.$RefinementCtx<string>,
  label: string,
): bigint | null {
  try {
    return parseDecimal(value, { decimals })
  } catch (error) {
    if (!(error instanceof InvalidDecimalError)) throw error
    ctx.addIssue({
      code: 'custom',
      message:
        error.reason === 'empty'
          ? 'is required'
          : `must be ${label} with at most ${decimals} decimal${decimals === 1 ? '' : 's'} (digits and one optional dot, e.g. ${decimals === 2 ? '999.9' : '401.125'})`,
    })
    return null
  }
}

/** Tries to parse a decimal without reporting anything (for the cross-field checks). */
function tryDecimal(value: unknown, decimals: number): bigint | null {
  if (typeof value !== 'string') return null
  try {
    return parseDecimal(value, { decimals })
  } catch {
    return null
  }
}

// Control, format (zero-width, bidi overrides), surrogate, private-use and unassigned
// characters, and line/paragraph separators: not printable.
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u

/**
 * A text field: 1..64 printable characters. Whitespace is tidied (trimmed, runs
 * collapsed to one space, NFC) so 'Valcambi  SA ' and 'Valcambi SA' are the same
 * refiner; the length is counted in characters after tidying.
 */
const text = z
  .string({ error: expected('a string') })
  .superRefine((value, ctx) => {
    if (NOT_PRINTABLE.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must contain only printable characters (no control characters)' })
    }
  })
  .transform((value) => value.normalize('NFC').trim().replace(/\s+/gu, ' '))
  .superRefine((value, ctx) => {
    const length = [...value].length
    if (length < MINT_REQUEST_LIMITS.minText) ctx.addIssue({ code: 'custom', message: 'is required' })
    else if (length > MINT_REQUEST_LIMITS.maxText) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MINT_REQUEST_LIMITS.maxText} characters` })
    }
  })

/** A 20-byte hex address, checksummed if mixed case, not the zero address. Output: checksummed. */
const address = z
  .string({ error: expected('a string') })
  .superRefine((value, ctx) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a 20-byte hex address: 0x followed by 40 hex digits' })
      return
    }
    const hex = value.slice(2)
    const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
    if (mixedCase && getAddress(value) !== value) {
      ctx.addIssue({
        code: 'custom',
        message: 'has an invalid checksum: check the mixed-case letters, or send the address in lowercase',
      })
      return
    }
    if (hex.toLowerCase() === zeroAddress.slice(2)) {
      ctx.addIssue({ code: 'custom', message: 'must not be the zero address' })
    }
  })
  .transform((value) => getAddress(value))

/** A positive amount of fine ounces, at most 3 decimals. */
const amount = z.string({ error: expected('a decimal string such as "802.168"') }).superRefine((value, ctx) => {
  const parsed = decimalOrIssue(value, 3, ctx, 'a decimal number of ounces')
  if (parsed !== null && parsed <= 0n) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' })
})

const grossOz = z.string({ error: expected('a decimal string such as "401.125"') }).superRefine((value, ctx) => {
  const parsed = decimalOrIssue(value, 3, ctx, 'a decimal number of ounces')
  if (parsed === null) return
  if (parsed <= 0n) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' })
  else if (parsed > MINT_REQUEST_LIMITS.maxGrossMilliOz) {
    ctx.addIssue({
      code: 'custom',
      message: `must be at most ${formatDecimal(MINT_REQUEST_LIMITS.maxGrossMilliOz, { decimals: 3 })} oz`,
    })
  }
})

const fineness = z.string({ error: expected('a decimal string such as "999.9"') }).superRefine((value, ctx) => {
  const parsed = decimalOrIssue(value, 2, ctx, 'a fineness in parts per thousand')
  if (parsed === null) return
  if (parsed < MINT_REQUEST_LIMITS.minFinenessHundredths || parsed > MINT_REQUEST_LIMITS.maxFinenessHundredths) {
    ctx.addIssue({ code: 'custom', message: 'must be from 900.0 to 999.99 (parts per thousand)' })
  }
})

const fineOz = z.string({ error: expected('a decimal string such as "401.084"') }).superRefine((value, ctx) => {
  decimalOrIssue(value, 3, ctx, 'a decimal number of ounces')
})

const year = z.number({ error: expected('a whole number (a year)') }).superRefine((value, ctx) => {
  const max = currentYear()
  if (!Number.isInteger(value)) ctx.addIssue({ code: 'custom', message: 'must be a whole number (a year)' })
  else if (value < MINT_REQUEST_LIMITS.minYear || value > max) {
    ctx.addIssue({ code: 'custom', message: `must be from ${MINT_REQUEST_LIMITS.minYear} to ${max}` })
  }
})

const documentSha256 = z
  .string({ error: expected('a string') })
  .regex(/^[0-9a-fA-F]{64}$/, { error: 'must be a SHA-256 digest: 64 hex characters' })
  .transform((value) => value.toLowerCase())

// Runs even when other fields of the object failed (`when`), so every broken rule is
// reported at once; it only looks at fields that parsed.
const always = { when: () => true }

// A bar is named by serial + refiner; the vault's bar list supplies the rest. year,
// grossOz, fineness and fineOz may be left out; when given they must equal the bar list
// (the server checks that: create_mint_order, lib/web/mint/createMintOrder.ts), and fineOz must agree with grossOz
// and fineness when all three are given.
export const mintBarSchema = z
  .strictObject(
    {
      serial: text,
      refiner: text,
      year: year.optional(),
      grossOz: grossOz.optional(),
      fineness: fineness.optional(),
      fineOz: fineOz.optional(),
    },
    { error: unknownKeys },
  )
  .superRefine((bar, ctx) => {
    if (!isRecord(bar)) return
    for (const field of ['serial', 'refiner'] as const) {
      const value = bar[field]
      // not printable: the text rule has said so already
      if (typeof value !== 'string' || value === '' || NOT_PRINTABLE.test(value)) continue
      const key = normalizeBarKey(value)
      if (!key.ok) ctx.addIssue({ code: 'custom', path: [field], message: key.message })
    }
    if (bar.grossOz === undefined || bar.fineness === undefined || bar.fineOz === undefined) return
    const gross = tryDecimal(bar.grossOz, 3)
    const fine = tryDecimal(bar.fineness, 2)
    const claimed = tryDecimal(bar.fineOz, 3)
    if (gross === null || fine === null || claimed === null) return
    if (gross <= 0n || gross > MINT_REQUEST_LIMITS.maxGrossMilliOz) return
    if (fine < MINT_REQUEST_LIMITS.minFinenessHundredths || fine > MINT_REQUEST_LIMITS.maxFinenessHundredths) return
    const computed = computeFineOz({ grossMilliOz: gross, finenessHundredths: fine })
    if (computed === 0n) {
      ctx.addIssue({
        code: 'custom',
        path: ['fineOz'],
        message: `must be greater than 0: gross ${bar.grossOz} oz x fineness ${bar.fineness} / 1000 is less than 0.001 oz`,
      })
      return
    }
    if (claimed !== computed) {
      ctx.addIssue({
        code: 'custom',
        path: ['fineOz'],
        message: `must be ${formatDecimal(computed, { decimals: 3, minFraction: 3 })}: gross ${bar.grossOz} oz x fineness ${bar.fineness} / 1000, rounded down to 0.001 oz`,
      })
    }
  }, always)

export const vaultProofSchema = z.strictObject(
  {
    vault: text,
    receiptRef: text,
    documentSha256,
    bars: z
      .array(mintBarSchema, { error: expected('a list of bars') })
      .min(MINT_REQUEST_LIMITS.minBars, { error: 'must list at least one bar' })
      .max(MINT_REQUEST_LIMITS.maxBars, { error: `must list at most ${MINT_REQUEST_LIMITS.maxBars} bars` }),
  },
  { error: unknownKeys },
)

export const mintRequestSchema = z
  .strictObject({ to: address, amount, vaultProof: vaultProofSchema }, { error: unknownKeys })
  .superRefine((request, ctx) => {
    if (!isRecord(request) || !isRecord(request.vaultProof)) return
    const bars: unknown = request.vaultProof.bars
    if (!Array.isArray(bars)) return

    // no bar twice (serial + refiner)
    const seen = new Map<string, number>()
    bars.forEach((bar: unknown, index) => {
      if (!isBarLike(bar)) return
      const key = barKey(bar)
      const first = seen.get(key)
      if (first === undefined) seen.set(key, index)
      else {
        ctx.addIssue({
          code: 'custom',
          path: ['vaultProof', 'bars', index, 'serial'],
          message: `bar ${bar.serial} (${bar.refiner}) is listed twice: also bar ${first + 1}`,
        })
      }
    })

    // amount = the sum of the bars' fine weights (once the list itself is acceptable, and
    // when every bar gives its fineOz; else the server checks it against the bar list)
    if (bars.length < MINT_REQUEST_LIMITS.minBars || bars.length > MINT_REQUEST_LIMITS.maxBars) return
    if (bars.some((bar: unknown) => !isRecord(bar) || bar.fineOz === undefined)) return
    const wanted = tryDecimal(request.amount, 3)
    if (wanted === null || wanted <= 0n) return
    let sum = 0n
    for (const bar of bars) {
      const fine = tryDecimal(isRecord(bar) ? bar.fineOz : undefined, 3)
      if (fine === null) return
      sum += fine
    }
    if (sum !== wanted) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `must equal the sum of the bars' fine weights: ${formatDecimal(sum, { decimals: 3, minFraction: 3 })}`,
      })
    }
  }, always)

/** The field rules of a bar, shared with the custodian's bar lists (lib/web/vault/parseBarList.ts). */
export const barFieldSchemas = { text, year, grossOz, fineness } as const

/** The recipient and amount rules, shared with the allowlist and the limits (lib/controls/schemas.ts). */
export const controlFieldSchemas = { address, text, amount } as const

/** The request as sent (JSON). */
export type MintRequestInput = z.input<typeof mintRequestSchema>
/** The request after validation: checksummed address, tidied text, lowercase digest. */
export type MintRequest = z.output<typeof mintRequestSchema>
export type ApiMintBar = z.output<typeof mintBarSchema>

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function isBarLike(value: unknown): value is { serial: string; refiner: string } {
  return isRecord(value) && typeof value.serial === 'string' && typeof value.refiner === 'string'
}
