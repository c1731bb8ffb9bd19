/**
 * The JSON shapes of the recipient and limit routes (docs/api.md "Recipients and
 * limits"), as sent on the wire: addresses checksummed, amounts fine-oz decimal strings,
 * times ISO 8601.
 */

/** One address on the recipient allowlist. */
export type ApiAllowedRecipient = {
  address: string
  label: string
  /** the admin who added it (null: seeded by the local stack or a migration) */
  addedBy: string | null
  addedAt: string
}

/** The mint limits; null means unlimited. */
export type ApiMintLimits = {
  maxOrderOz: string | null
  dailyCapOz: string | null
  /** in flight + mined in the last 24 h + requested in the last 24 h and awaiting approval: what the cap counts now */
  last24hOz: string
  updatedBy: string | null
  updatedAt: string | null
}
