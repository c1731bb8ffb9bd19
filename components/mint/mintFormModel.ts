import { formatOz, type PickedBar, pickedTotals } from '@/components/vault/pickedBars'
import type { ErrorIssue } from '@/lib/errors/BaseError'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'

// The request form's state and its pure rules (no React here, so it is unit-tested).
// Bars are picked from the vault's inventory (components/vault): the request names each
// by serial + refiner and the server takes its weights from the bar list; the amount is
// the total of their fine weights, never typed.

export type MintDraft = {
  to: string
  vault: string
  receiptRef: string
  documentSha256: string
  bars: PickedBar[]
}

/** Field errors keyed by the API's issue paths ('to', 'vaultProof.bars.0', 'vaultProof.bars.0.serial', ...). */
export type FieldErrors = Record<string, string>

/** The vault a new form searches first: the local stack seeds its dev bar list. */
export const DEFAULT_VAULT = 'LDN-1'

export function emptyDraft(): MintDraft {
  return { to: '', vault: DEFAULT_VAULT, receiptRef: '', documentSha256: '', bars: [] }
}

/** The amount the draft requests: its bars' total fine weight ('' while there is no bar). */
export function amountOf(bars: readonly Pick<PickedBar, 'fineOz'>[]): string {
  return bars.length === 0 ? '' : formatOz(pickedTotals(bars).milliOz)
}

/**
 * The request body: text as typed (the server tidies it), each bar by serial + refiner
 * only (docs/api.md: the bar list supplies year and weights), the amount from the bars.
 */
export function draftToRequest(draft: MintDraft): MintRequestInput {
  return {
    to: draft.to.trim(),
    amount: amountOf(draft.bars),
    vaultProof: {
      vault: draft.vault,
      receiptRef: draft.receiptRef,
      documentSha256: draft.documentSha256.trim(),
      bars: draft.bars.map((bar) => ({ serial: bar.serial, refiner: bar.refiner })),
    },
  }
}

/** What the shared schema cannot know: a chosen bar of another vault than the one the request names. */
export function checkDraftBars(draft: Pick<MintDraft, 'vault' | 'bars'>): ErrorIssue[] {
  const vault = draft.vault.trim()
  return draft.bars.flatMap((bar, index) =>
    bar.vault === vault
      ? []
      : [
          {
            path: `vaultProof.bars.${index}`,
            message: `is in vault ${bar.vault}, not ${vault || 'the one above'}: remove it, or set the vault back`,
          },
        ],
  )
}

const BAR_PATH = /^vaultProof\.bars\.([0-9]+)(?:\.(serial|refiner|year|grossOz|fineness|fineOz))?$/

/** Paths the form shows next to a field or a bar; any other issue goes to the summary at the top. */
export function isFieldPath(path: string, barCount: number): boolean {
  if (
    [
      'to',
      'amount',
      'vaultProof.vault',
      'vaultProof.receiptRef',
      'vaultProof.documentSha256',
      'vaultProof.bars',
    ].includes(path)
  ) {
    return true
  }
  const match = BAR_PATH.exec(path)
  return match !== null && Number(match[1]) < barCount
}

/**
 * Server (or client-side) issues -> field errors by path, and the rest for the summary. The amount is read-only
 * (the bars' total fine weight), so an issue about it is told of the bars, where the user can act.
 */
export function issuesToErrors(
  issues: readonly ErrorIssue[],
  barCount: number,
): { fields: FieldErrors; other: ErrorIssue[] } {
  const fields: FieldErrors = {}
  const other: ErrorIssue[] = []
  // the amount's issues last: a bar list's own issue ("must list at least one bar") says it better
  const ordered = [...issues.filter((i) => i.path !== 'amount'), ...issues.filter((i) => i.path === 'amount')]
  for (const raw of ordered) {
    const issue = raw.path === 'amount' ? amountIssueOfBars(raw, barCount) : raw
    if (isFieldPath(issue.path, barCount)) fields[issue.path] ??= issue.message
    else other.push(issue)
  }
  return { fields, other }
}

function amountIssueOfBars(issue: ErrorIssue, barCount: number): ErrorIssue {
  return {
    path: 'vaultProof.bars',
    message:
      barCount === 0
        ? 'pick at least one bar: the amount is their total fine weight'
        : `their total fine weight (the amount) ${issue.message}`,
  }
}

const BAR_FIELD_NAMES: Record<string, string> = {
  serial: 'serial',
  refiner: 'refiner',
  year: 'year',
  grossOz: 'gross weight',
  fineness: 'fineness',
  fineOz: 'fine weight',
}

/** The messages about the bar at `index` (its own, then its fields' ones, each named). */
export function barErrorsOf(errors: FieldErrors, index: number): string[] {
  const base = `vaultProof.bars.${index}`
  const out: string[] = []
  if (errors[base]) out.push(errors[base])
  for (const [field, name] of Object.entries(BAR_FIELD_NAMES)) {
    const message = errors[`${base}.${field}`]
    if (message) out.push(`${name}: ${message}`)
  }
  return out
}

/** The errors once the bar at `removed` is gone: those of the bars below move up with them. */
export function shiftBarErrors(errors: FieldErrors, removed: number): FieldErrors {
  const out: FieldErrors = {}
  for (const [path, message] of Object.entries(errors)) {
    const match = /^vaultProof\.bars\.([0-9]+)(\..*)?$/.exec(path)
    if (!match) {
      // the list's own error ("must list at least one bar") and the amount change with the bars
      if (path !== 'vaultProof.bars' && path !== 'amount') out[path] = message
      continue
    }
    const index = Number(match[1])
    if (index === removed) continue
    out[`vaultProof.bars.${index > removed ? index - 1 : index}${match[2] ?? ''}`] = message
  }
  return out
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
    const n = Number(match[1]) + 1
    return match[2] ? `Bar ${n} ${BAR_FIELD_NAMES[match[2]] ?? match[2]}` : `Bar ${n}`
  }
  return path
}

/** A fresh Idempotency-Key; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
