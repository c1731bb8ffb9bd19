import { encodeVaultCursor } from './vaultCursor'

export type VaultPageParameters<R> = {
  /** the page size asked for: the query fetched one row more, to know if a next page exists */
  limit: number
  /** the sort key of a row, whose last row's key is the next page's cursor */
  sortKeyOf: (row: R) => readonly string[]
}

/**
 * One page of a vault list's keyset query (fetched with `limit + 1`): the rows of the page,
 * and the cursor of the next page (null on the last one).
 */
export function vaultPage<R>(
  rows: readonly R[],
  { limit, sortKeyOf }: VaultPageParameters<R>,
): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return { page, nextCursor: rows.length > limit && last ? encodeVaultCursor(sortKeyOf(last)) : null }
}
