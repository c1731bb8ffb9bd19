'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { cancelJob, retryJob, retryJobs } from './jobsApi'

/**
 * Retry, cancel and bulk retry, each refreshing every admin view afterwards (lists,
 * detail, dashboard figures), so the page shows the job's new state within a moment.
 */
export function useJobActions() {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] })
  return {
    retry: useMutation({ mutationFn: retryJob, onSettled: refresh }),
    cancel: useMutation({ mutationFn: cancelJob, onSettled: refresh }),
    retryMany: useMutation({ mutationFn: retryJobs, onSettled: refresh }),
  }
}
