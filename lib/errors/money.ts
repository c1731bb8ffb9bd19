import { BaseError } from './BaseError'

/** Errors of exact decimal amounts and weights (lib/money). Pure and client-safe: the form uses the same parser. */

export type InvalidDecimalErrorParameters = {
  /** the rejected input, shortened when long */
  value: unknown
  /** why it was rejected, as a short human phrase */
  reason: string
}

/**
 * A decimal string that is not an exact, plain decimal (digits, at most one dot, at
 * most the allowed fraction digits), or a value that cannot be written exactly with
 * the requested decimals. Request parsing turns it into a field issue (422); one that
 * escapes is a bug: 500.
 */
export class InvalidDecimalError extends BaseError<'invalid_decimal'> {
  override name = 'InvalidDecimalError'
  readonly value: unknown
  readonly reason: string

  constructor({ value, reason }: InvalidDecimalErrorParameters) {
    super('invalid_decimal', `invalid decimal ${preview(value)}: ${reason}`)
    this.value = value
    this.reason = reason
  }
}

function preview(value: unknown): string {
  if (typeof value !== 'string') return typeof value
  const s = value.length > 40 ? `${value.slice(0, 40)}...` : value
  return JSON.stringify(s)
}
