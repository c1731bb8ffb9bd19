'use client'

import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import { useDebouncedValue } from './useDebouncedValue'
import { fetchVaultBars } from './vaultApi'

export type UseBarSearchParameters = {
  vault: string
  /** serial or refiner, as typed */
  q: string
  /** results per page */
  pageSize?: number
}

export type UseBarSearchReturnType = {
  /** the available bars found so far (every page loaded) */
  bars: ApiVaultBar[]
  /** how many available bars match in all (the first page's count), null before it arrives */
  total: number | null
  /** the vault and text the results are for (typing settles after a short pause) */
  searched: { vault: string; q: string }
  /** false while no vault is given */
  enabled: boolean
  loading: boolean
  /** true while the text typed differs from the one the results are for */
  pending: boolean
  error: Error | null
  more: (() => void) | undefined
  loadingMore: boolean
}

const DEBOUNCE_MS = 250

/**
 * Searches the available bars of a vault (GET /api/vault/bars?status=available), once
 * the typing pauses; further pages on demand (keyset cursor). The previous results stay
 * on screen while the next search runs, so the list does not flash.
 */
export function useBarSearch({ vault, q, pageSize = 10 }: UseBarSearchParameters): UseBarSearchReturnType {
  const typed = { vault: vault.trim(), q: q.trim() }
  // a string, not the object: a fresh object each render would restart the pause forever
  const [settledVault = '', settledQ = ''] = JSON.parse(
    useDebouncedValue(JSON.stringify([typed.vault, typed.q]), DEBOUNCE_MS),
  ) as string[]
  const searched = { vault: settledVault, q: settledQ }
  const enabled = searched.vault !== ''
  const query = useInfiniteQuery({
    queryKey: ['vault-bars', 'available', searched.vault, searched.q, pageSize],
    queryFn: ({ pageParam, signal }) =>
      fetchVaultBars(
        { vault: searched.vault, status: 'available', q: searched.q, cursor: pageParam, limit: pageSize },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    enabled,
    // the inventory changes under the form (other requests reserve bars): ask again on return
    staleTime: 2_000,
  })
  return {
    bars: query.data?.pages.flatMap((p) => p.items) ?? [],
    total: query.data?.pages[0]?.total ?? null,
    searched,
    enabled,
    loading: enabled && query.isPending,
    pending:
      typed.vault !== searched.vault || typed.q !== searched.q || (query.isFetching && !query.isFetchingNextPage),
    error: query.error,
    more: query.hasNextPage ? () => void query.fetchNextPage() : undefined,
    loadingMore: query.isFetchingNextPage,
  }
}
