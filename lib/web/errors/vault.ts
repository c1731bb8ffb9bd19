import { BaseError } from '@/lib/errors/BaseError'

/**
 * Errors of the vault inventory: the custodian's bar lists are the only source of bars
 * (docs/architecture.md invariant 4). Codes in `lib/errors/http.ts`: bar_not_in_vault 422,
 * bar_mismatch 422, stale_bar_list 409.
 */

/** A bar of a request; `index` is its position in `vaultProof.bars`. */
export type RequestedBar = { serial: string; refiner: string; index: number }

/** Bars that are not in the latest bar list of the vault (unknown, withdrawn, missing, or of another vault). */
export class BarNotInVaultError extends BaseError {
  override name = 'BarNotInVaultError'
  readonly vault: string
  readonly bars: RequestedBar[]
  constructor({ vault, bars }: { vault: string; bars: RequestedBar[] }) {
    const list = bars.map((b) => `${b.serial} (${b.refiner})`).join(', ')
    super(
      'bar_not_in_vault',
      bars.length === 1
        ? `Bar ${list} is not in the latest bar list of vault ${vault}.`
        : `Bars ${list} are not in the latest bar list of vault ${vault}.`,
      {
        issues: bars.map((b) => ({
          path: `vaultProof.bars.${b.index}`,
          message: `bar ${b.serial} (${b.refiner}) is not in the latest bar list of vault ${vault}`,
        })),
      },
    )
    this.vault = vault
    this.bars = bars
  }
}

/** One attribute of a requested bar that differs from the bar list. */
export type BarMismatch = RequestedBar & {
  field: 'year' | 'grossOz' | 'fineness' | 'fineOz'
  /** what the bar list says */
  inventory: string
  /** what the request says */
  given: string
}

/** A bar's year, weight or fineness in the request differs from the bar list. */
export class BarMismatchError extends BaseError {
  override name = 'BarMismatchError'
  readonly mismatches: BarMismatch[]
  constructor({ mismatches }: { mismatches: BarMismatch[] }) {
    const bars = [...new Set(mismatches.map((m) => `${m.serial} (${m.refiner})`))].join(', ')
    super(
      'bar_mismatch',
      `The bar list says otherwise for ${bars}: leave the field out or give the bar list's value.`,
      {
        issues: mismatches.map((m) => ({
          path: `vaultProof.bars.${m.index}.${m.field}`,
          message: `must be ${m.inventory} as in the bar list (got ${m.given})`,
        })),
      },
    )
    this.mismatches = mismatches
  }
}

/** A bar list not a second after the vault's latest one (whole seconds, as GoldMinter orders them). */
export class StaleBarListError extends BaseError {
  override name = 'StaleBarListError'
  readonly vault: string
  readonly asOf: Date
  readonly latestAsOf: Date
  constructor({ vault, asOf, latestAsOf }: { vault: string; asOf: Date; latestAsOf: Date }) {
    super(
      'stale_bar_list',
      `This bar list of vault ${vault} is as of ${asOf.toISOString()}, older than the latest one imported (${latestAsOf.toISOString()}) or in its second (a vault's lists are ordered by whole seconds).`,
    )
    this.vault = vault
    this.asOf = asOf
    this.latestAsOf = latestAsOf
  }
}
