import { MINT_REQUEST_LIMITS } from '@/lib/mint/mintRequestLimits'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'

// The bar picker's model (no React here, so it is unit-tested): the bars chosen from the
// vault inventory for one mint, their totals, and what each search result may do.
// Weights stay exact: bigint milli-ounces, never a float.

/** A bar chosen from the inventory: what the form shows and sends (serial + refiner). */
export type PickedBar = Pick<
  ApiVaultBar,
  'id' | 'vault' | 'serial' | 'refiner' | 'year' | 'grossOz' | 'fineness' | 'fineOz'
>

export type PickedTotals = {
  /** how many bars are chosen */
  count: number
  /** the sum of their fine weights, in milli-ounces: the mint's amount */
  milliOz: bigint
}

/** The chosen bars' count and total fine weight. */
export function pickedTotals(bars: readonly Pick<PickedBar, 'fineOz'>[]): PickedTotals {
  let milliOz = 0n
  for (const bar of bars) milliOz += parseDecimal(bar.fineOz, { decimals: 3 })
  return { count: bars.length, milliOz }
}

/** Ounces with their three decimals ("801.044"). */
export function formatOz(milliOz: bigint): string {
  return formatDecimal(milliOz, { decimals: 3, minFraction: 3 })
}

/** What a search result's button does: add it, it is added already, or the mint is full. */
export type PickState = 'add' | 'added' | 'full'

export function pickStateOf(bar: Pick<PickedBar, 'id'>, picked: readonly Pick<PickedBar, 'id'>[]): PickState {
  if (picked.some((p) => p.id === bar.id)) return 'added'
  return picked.length >= MINT_REQUEST_LIMITS.maxBars ? 'full' : 'add'
}

/** The chosen bars with `bar` added at the end; unchanged when it is there already or the mint is full. */
export function addPickedBar(picked: readonly PickedBar[], bar: PickedBar): PickedBar[] {
  if (pickStateOf(bar, picked) !== 'add') return [...picked]
  return [...picked, toPickedBar(bar)]
}

/** The chosen bars without the one at `index`. */
export function removePickedBar(picked: readonly PickedBar[], index: number): PickedBar[] {
  return picked.filter((_, i) => i !== index)
}

/** Only the fields the form keeps (a search result carries status, order and times too). */
export function toPickedBar(bar: PickedBar): PickedBar {
  const { id, vault, serial, refiner, year, grossOz, fineness, fineOz } = bar
  return { id, vault, serial, refiner, year, grossOz, fineness, fineOz }
}
