import { mintControlsRefusal } from '@/lib/controls/mintControlsRefusal'
import type { BaseError } from '@/lib/errors/BaseError'
import { BarAlreadyUsedError } from '@/lib/errors/mint'
import type { MintRequest } from '@/lib/mint/mintRequestSchema'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { logSessionRefusal } from '@/lib/web/auth/logSessionRefusal'
import type { SessionRefusal } from '@/lib/web/auth/verifySession'
import { ForbiddenError, UnauthenticatedError } from '@/lib/web/errors/auth'
import { ValidationError } from '@/lib/web/errors/request'
import { type BarMismatch, BarMismatchError, BarNotInVaultError } from '@/lib/web/errors/vault'

/** The SQLSTATE the intake's SQL function raises a refusal with (db/functions/create_mint_order.sql). */
export const INTAKE_REFUSAL_SQLSTATE = 'MDR01'

export type IntakeRefusalParameters = {
  /** the validated request the function was called with: the errors name its bars as it gave them */
  request: MintRequest
  /** the user the session named, for the log line of a refused session */
  userId: string
}

/** The reasons create_mint_order's step 0 refuses a session with: those of the row check (verifySession). */
const ROW_REFUSALS: readonly SessionRefusal[] = ['unknown_user', 'disabled', 'revoked', 'signed_out']

type MismatchField = BarMismatch['field']
const DECIMAL_PLACES: Record<Exclude<MismatchField, 'year'>, number> = { grossOz: 3, fineness: 2, fineOz: 3 }

/**
 * The error class of a refusal raised by `create_mint_order` (its message is the refusal's
 * code, its detail the JSON the error needs), with the very codes, statuses, messages and
 * issues the TypeScript intake gave: bar_not_in_vault, bar_mismatch, validation_failed on
 * `amount`, bar_already_used, and the controls' recipient_not_allowed and over_limit
 * (public.check_mint_controls, mapped by lib/controls/mintControlsRefusal); and the session's
 * refusals of its step 0, as the route wrapper answers them: unauthenticated (401, the
 * reason logged as a refused session is, lib/web/auth/logSessionRefusal) and forbidden (403,
 * the row's role not among the route's). Null for any other error
 * (a bug or an outage: it propagates as it is). Reads `cause` too: Drizzle wraps the
 * driver's error.
 */
export function intakeRefusal(error: unknown, { request, userId }: IntakeRefusalParameters): BaseError | null {
  const raised = refusalOf(error)
  if (!raised) return null
  if (raised.code === 'unauthenticated') {
    const given = record(raised.detail).reason
    // the function gives one of the row check's reasons; the session is refused whatever the detail says
    const reason = ROW_REFUSALS.find((r) => r === given) ?? 'unknown_user'
    logSessionRefusal({ reason, userId })
    return new UnauthenticatedError()
  }
  if (raised.code === 'forbidden') return new ForbiddenError()
  const bars = request.vaultProof.bars
  const vault = request.vaultProof.vault
  const named = (index: number) => ({ serial: bars[index]?.serial ?? '', refiner: bars[index]?.refiner ?? '', index })
  switch (raised.code) {
    case 'bar_not_in_vault':
      return new BarNotInVaultError({ vault, bars: indexes(raised.detail).map(named) })
    case 'bar_already_used':
      return new BarAlreadyUsedError({ bars: indexes(raised.detail).map(named) })
    case 'bar_mismatch':
      return new BarMismatchError({ mismatches: mismatches(raised.detail, request) })
    case 'amount_mismatch': {
      const fineOz = formatDecimal(parseDecimal(String(raised.detail), { decimals: 3 }), {
        decimals: 3,
        minFraction: 3,
      })
      return new ValidationError(
        [
          {
            path: 'amount',
            message: `must equal the sum of the bars' fine weights in the bar list of ${vault}: ${fineOz}`,
          },
        ],
        'The mint request is invalid.',
      )
    }
    case 'recipient_not_allowed':
    case 'over_limit':
      // public.check_mint_controls' refusal, as the approval and the worker map it
      return mintControlsRefusal({ refusal: raised.code, detail: raised.detail, to: request.to })
    default:
      return null
  }
}

function refusalOf(error: unknown): { code: string; detail: unknown } | null {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, detail } = e as { code?: unknown; message?: unknown; detail?: unknown }
    if (code === INTAKE_REFUSAL_SQLSTATE && typeof message === 'string') {
      return { code: message, detail: typeof detail === 'string' ? JSON.parse(detail) : null }
    }
  }
  return null
}

function indexes(detail: unknown): number[] {
  return Array.isArray(detail) ? detail.filter((i): i is number => Number.isInteger(i)) : []
}

function record(detail: unknown): Record<string, unknown> {
  return typeof detail === 'object' && detail !== null ? (detail as Record<string, unknown>) : {}
}

/** detail: per bar (request order) the list of { i, field, inventory } in field order. */
function mismatches(detail: unknown, request: MintRequest): BarMismatch[] {
  const flat = (Array.isArray(detail) ? detail.flat() : []).map(record)
  return flat.flatMap((m): BarMismatch[] => {
    const index = Number(m.i)
    const bar = request.vaultProof.bars[index]
    const field = m.field as MismatchField
    if (!bar) return []
    const named = { serial: bar.serial, refiner: bar.refiner, index }
    const listed = String(m.inventory)
    if (field === 'year') return [{ ...named, field, inventory: listed, given: String(bar.year) }]
    const places = DECIMAL_PLACES[field]
    const given = bar[field]
    if (places === undefined || given === undefined) return []
    const inventory = formatDecimal(parseDecimal(listed, { decimals: places }), {
      decimals: places,
      minFraction: places === 2 ? 1 : 3,
    })
    return [{ ...named, field, inventory, given }]
  })
}
