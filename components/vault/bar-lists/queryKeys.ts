/** The bar-list page's React Query keys, shared by its queries and the import that makes them stale. */
export const barListsQueryKey = ['vault-bar-lists'] as const
export const missingBarsQueryKey = ['vault-bars', 'missing'] as const
