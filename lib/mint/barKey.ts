import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'

/**
 * The key that identifies a physical bar: serial + refiner, compared without case,
 * spaces or dashes (lib/vault/normalizeBarKey.ts; vault_bars is unique on the same keys).
 * Text that cannot be a key (non-ASCII) keeps its own upper-cased spelling here: it is
 * refused by the schema anyway, this only tells duplicates apart.
 */
export function barKey(bar: { serial: string; refiner: string }): string {
  return `${keyOf(bar.serial)}\u0000${keyOf(bar.refiner)}`
}

function keyOf(value: string): string {
  const normalized = normalizeBarKey(value)
  return normalized.ok ? normalized.key : value.toUpperCase()
}
