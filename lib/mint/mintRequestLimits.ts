/** The limits of a mint request (docs/api.md, POST /api/gold/mint). Shared by the schema and the form. */
export const MINT_REQUEST_LIMITS = {
  minBars: 1,
  maxBars: 100,
  /** text fields: vault, receiptRef, serial, refiner (characters, after whitespace is tidied) */
  minText: 1,
  maxText: 64,
  minYear: 1900,
  /** fineness in parts per thousand, as hundredths: 900.00 .. 999.99 */
  minFinenessHundredths: 90_000n,
  maxFinenessHundredths: 99_999n,
  /** the heaviest bar we accept, in milli-ounces: 1000 oz (a Good Delivery bar is 350-430 oz) */
  maxGrossMilliOz: 1_000_000n,
  /** Idempotency-Key header length */
  minIdempotencyKey: 1,
  maxIdempotencyKey: 128,
} as const

/** The latest year a bar can have been cast in: the current year (UTC). */
export function currentYear(now: Date = new Date()): number {
  return now.getUTCFullYear()
}
