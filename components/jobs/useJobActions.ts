'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { MINT_ORDER_QUERY_ROOT } from '@/components/mint/mintApi'
import { cancelJob, retryJob, retryJobs } from './jobsApi'

/**
 * Retry, cancel and bulk retry, each refreshing every admin view afterwards (lists,
 * detail, dashboard figures) and the order pages' orders, so the page shows the job's
 * and its order's new state within a moment.
 */
export function useJobActions() {
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin'] }),
      queryClient.invalidateQueries({ queryKey: [MINT_ORDER_QUERY_ROOT] }),
    ])
  return {
    retry: useMutation({ mutationFn: retryJob, onSettled: refresh }),
    cancel: useMutation({ mutationFn: cancelJob, onSettled: refresh }),
    retryMany: useMutation({ mutationFn: retryJobs, onSettled: refresh }),
  }
}
