import { z } from 'zod'

/**
 * The decimal strings of the API's answers as zod schemas with their patterns, so the OpenAPI document says what
 * such a string holds and the answer check (tests/routeAnswers/recordedRouteAnswers.test.ts) refuses a number or a
 * float's spelling: digits with an optional fraction, no sign, no exponent (parseDecimal's rule).
 */

/** a weight or an amount: fine troy ounces (`"401.125"`) or wei, never a float */
export const decimalStringSchema = z
  .string()
  .regex(/^[0-9]+(?:\.[0-9]+)?$/, 'a decimal string (digits, an optional fraction)')

/** a whole number too big for a JSON number: wei, a block number, a uint256 of typed data, a bigint id */
export const wholeNumberStringSchema = z.string().regex(/^[0-9]+$/, 'a whole number as a decimal string')
