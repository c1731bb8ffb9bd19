'use client'

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useDebouncedValue } from '@/components/vault/useDebouncedValue'
import { fetchVaultBars } from '@/components/vault/vaultApi'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'

export type UseBackingBarSearchReturnType = {
  /** the backing bars found (the first page), every vault */
  bars: ApiVaultBar[]
  /** how many backing bars match in all, null before the answer */
  total: number | null
  /** the text the results are for (typing settles after a short pause) */
  searched: string
  loading: boolean
  error: Error | null
}

const DEBOUNCE_MS = 250
const PAGE_SIZE = 20

/**
 * Searches the bars that back confirmed mints, in every vault (GET /api/vault/bars?status=backing&q=), once the
 * typing pauses: the only bars a redemption may take. The previous results stay on screen while the next search
 * runs.
 */
export function useBackingBarSearch({ q }: { q: string }): UseBackingBarSearchReturnType {
  const searched = useDebouncedValue(q.trim(), DEBOUNCE_MS)
  const query = useQuery({
    queryKey: ['vault-bars', 'backing', searched, PAGE_SIZE],
    queryFn: ({ signal }) => fetchVaultBars({ status: 'backing', q: searched, limit: PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
    // other requests take bars meanwhile: ask again soon
    staleTime: 2_000,
  })
  return {
    // a bar another redemption already holds cannot be taken again (the server answers 409 bar_already_used)
    bars: (query.data?.items ?? []).filter((b) => b.redemptionId === null),
    total: query.data?.total ?? null,
    searched,
    loading: query.isPending,
    error: query.error,
  }
}
