/** The limits of a custodian bar list (docs/api.md, Vault inventory). */
export const BAR_LIST_LIMITS = {
  /** bars in one list */
  maxBars: 100_000,
  /** the body of POST /api/admin/vault/bar-lists */
  maxBodyBytes: 20 * 1024 * 1024,
  /** how far in the future `asOf` may be (clock skew): a list from the future would make every later one stale */
  maxFutureMs: 10 * 60 * 1000,
  /** issues reported at most; the rest are counted in one last issue */
  maxIssues: 200,
  /**
   * characters of one row: a CSV line (its quoted line breaks included), a JSON bar, a
   * top-level JSON value. A bar's fields take 64 characters at most; a longer row is not a
   * bar, and is refused before more of it is read
   */
  maxRowChars: 4_096,
  /** characters of a top-level JSON field's name */
  maxFieldNameChars: 256,
  /** top-level JSON fields (vault, asOf, bars, and unknown ones that are reported) */
  maxFields: 16,
} as const

/** The CSV columns, in the order docs/api.md gives them. */
export const BAR_LIST_CSV_COLUMNS = ['serial', 'refiner', 'year', 'grossOz', 'fineness'] as const
