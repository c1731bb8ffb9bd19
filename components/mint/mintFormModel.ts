import type { ErrorIssue } from '@/lib/errors/BaseError'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { computeFineOz } from '@/lib/mint/computeFineOz'
import { MINT_LIMITS } from '@/lib/mint/limits'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'

// The request form's state and its pure rules (no React here, so it is unit-tested).
// Weights are computed with the server's own code (lib/mint/computeFineOz): bigint
// milli-ounces, LBMA rounding down, never a float.

export type BarDraft = {
  /** stable React key; not sent */
  id: string
  serial: string
  refiner: string
  year: string
  grossOz: string
  fineness: string
}

export type MintDraft = {
  to: string
  amount: string
  vault: string
  receiptRef: string
  documentSha256: string
  bars: BarDraft[]
}

/** Field errors keyed by the API's issue paths ('to', 'vaultProof.bars.0.grossOz', ...). */
export type FieldErrors = Record<string, string>

let nextBarId = 0
export function newBarDraft(from?: Pick<BarDraft, 'refiner' | 'year' | 'fineness'>): BarDraft {
  nextBarId += 1
  return {
    id: `bar-${nextBarId}`,
    serial: '',
    refiner: from?.refiner ?? '',
    year: from?.year ?? '',
    grossOz: '',
    fineness: from?.fineness ?? '',
  }
}

export function emptyDraft(): MintDraft {
  return { to: '', amount: '', vault: '', receiptRef: '', documentSha256: '', bars: [newBarDraft()] }
}

function tryDecimal(value: string, decimals: number): bigint | null {
  try {
    return parseDecimal(value.trim(), { decimals })
  } catch {
    return null
  }
}

/** The bar's fine weight in milli-ounces, or null while gross or fineness is not a valid number in range. */
export function fineMilliOzOf(bar: Pick<BarDraft, 'grossOz' | 'fineness'>): bigint | null {
  const gross = tryDecimal(bar.grossOz, 3)
  const fineness = tryDecimal(bar.fineness, 2)
  if (gross === null || fineness === null || gross <= 0n || gross > MINT_LIMITS.maxGrossMilliOz) return null
  if (fineness < MINT_LIMITS.minFinenessHundredths || fineness > MINT_LIMITS.maxFinenessHundredths) return null
  return computeFineOz({ grossMilliOz: gross, finenessHundredths: fineness })
}

export function formatOz(milliOz: bigint): string {
  return formatDecimal(milliOz, { decimals: 3, minFraction: 3 })
}

export type FineTotal = {
  /** the sum of every computable fine weight */
  milliOz: bigint
  /** how many bars still lack a computable fine weight */
  incomplete: number
}

export function totalFine(bars: readonly Pick<BarDraft, 'grossOz' | 'fineness'>[]): FineTotal {
  let milliOz = 0n
  let incomplete = 0
  for (const bar of bars) {
    const fine = fineMilliOzOf(bar)
    if (fine === null) incomplete += 1
    else milliOz += fine
  }
  return { milliOz, incomplete }
}

export type AmountCheck = 'empty' | 'invalid' | 'incomplete' | 'matches' | 'differs'

/** How the typed amount compares with the total of the bars' fine weights. */
export function checkAmount(amount: string, total: FineTotal): AmountCheck {
  if (amount.trim() === '') return 'empty'
  const value = tryDecimal(amount, 3)
  if (value === null) return 'invalid'
  if (total.incomplete > 0) return 'incomplete'
  return value === total.milliOz ? 'matches' : 'differs'
}

/**
 * The request body for the draft: numbers trimmed, each fine weight computed with the
 * server's rule, the year as a JSON number.
 */
export function draftToRequest(draft: MintDraft): MintRequestInput {
  return {
    to: draft.to.trim(),
    amount: draft.amount.trim(),
    vaultProof: {
      vault: draft.vault,
      receiptRef: draft.receiptRef,
      documentSha256: draft.documentSha256.trim(),
      bars: draft.bars.map((bar) => {
        const fine = fineMilliOzOf(bar)
        const year = bar.year.trim()
        return {
          serial: bar.serial,
          refiner: bar.refiner,
          // a year is a small integer, not an amount, so Number() is exact here; anything
          // else becomes NaN, which the rules report as "must be a whole number (a year)"
          year: /^[0-9]{1,4}$/.test(year) ? Number(year) : Number.NaN,
          grossOz: bar.grossOz.trim(),
          fineness: bar.fineness.trim(),
          fineOz: fine === null ? '' : formatOz(fine),
        }
      }),
    },
  }
}

/** Paths the form shows next to a field; any other issue goes to the summary at the top. */
export function isFieldPath(path: string, barCount: number): boolean {
  if (['to', 'amount', 'vaultProof.vault', 'vaultProof.receiptRef', 'vaultProof.documentSha256', 'vaultProof.bars'].includes(path)) {
    return true
  }
  const match = /^vaultProof\.bars\.([0-9]+)(?:\.(serial|refiner|year|grossOz|fineness|fineOz))?$/.exec(path)
  return match !== null && Number(match[1]) < barCount
}

/** Server (or client-side) issues -> field errors by path, and the rest for the summary. */
export function issuesToErrors(issues: readonly ErrorIssue[], barCount: number): { fields: FieldErrors; other: ErrorIssue[] } {
  const fields: FieldErrors = {}
  const other: ErrorIssue[] = []
  for (const issue of issues) {
    if (isFieldPath(issue.path, barCount)) fields[issue.path] ??= issue.message
    else other.push(issue)
  }
  return { fields, other }
}

/** A human name for an issue path, for the error summary ("Bar 2 fine weight"). */
export function labelForPath(path: string): string {
  const names: Record<string, string> = {
    '': 'Request',
    to: 'Recipient address',
    amount: 'Amount',
    'vaultProof.vault': 'Vault',
    'vaultProof.receiptRef': 'Vault receipt reference',
    'vaultProof.documentSha256': 'Receipt document SHA-256',
    'vaultProof.bars': 'Bars',
  }
  if (path in names) return names[path] ?? path
  const match = /^vaultProof\.bars\.([0-9]+)(?:\.(\w+))?$/.exec(path)
  if (match) {
    const field: Record<string, string> = {
      serial: 'serial',
      refiner: 'refiner',
      year: 'year',
      grossOz: 'gross weight',
      fineness: 'fineness',
      fineOz: 'fine weight',
    }
    const n = Number(match[1]) + 1
    return match[2] ? `Bar ${n} ${field[match[2]] ?? match[2]}` : `Bar ${n}`
  }
  return path
}

/** A fresh Idempotency-Key; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
