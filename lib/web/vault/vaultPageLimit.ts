import { ValidationError } from '@/lib/web/errors/request'

/**
 * A vault list's page size: `limit` unless absent (then `fallback`);
 * a ValidationError (422, path `limit`) outside 1..max.
 */
export function vaultPageLimit(
  limit: number | undefined,
  { fallback, max }: { fallback: number; max: number },
): number {
  const value = limit ?? fallback
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ValidationError([{ path: 'limit', message: `must be a whole number from 1 to ${max}` }])
  }
  return value
}
