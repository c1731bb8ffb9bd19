'use client'

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { fetchJobs, type JobFilters } from './jobsApi'

/**
 * A keyset-paginated jobs query: a stack of cursors (older = push the page's
 * nextCursor, newer = pop), reset whenever the filters change. The first page refreshes
 * itself; deeper pages hold still so rows do not move under the reader.
 */
export function usePagedJobs(filters: JobFilters, { limit = 50, refreshMs = 5_000, paused = false } = {}) {
  const key = JSON.stringify(filters)
  const [stack, setStack] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] })
  const cursors = stack.key === key ? stack.cursors : []
  const cursor = cursors[cursors.length - 1] ?? null
  const query = useQuery({
    queryKey: ['admin', 'jobs', filters, cursor, limit],
    queryFn: () => fetchJobs(filters, cursor, limit),
    placeholderData: keepPreviousData,
    refetchInterval: cursor === null && !paused ? refreshMs : false,
  })
  const next = query.data?.nextCursor ?? null
  return {
    query,
    page: cursors.length + 1,
    older: next ? () => setStack({ key, cursors: [...cursors, next] }) : undefined,
    newer: cursors.length > 0 ? () => setStack({ key, cursors: cursors.slice(0, -1) }) : undefined,
    first: () => setStack({ key, cursors: [] }),
  }
}
