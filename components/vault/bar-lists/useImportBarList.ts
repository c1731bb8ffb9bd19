'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ApiBarListImport } from '@/lib/web/vault/apiTypes'
import { type BarListImportRequestParameters, barListImportRequest } from '../barListImportRequest'
import { postBarList } from '../vaultApi'
import { barListsQueryKey, missingBarsQueryKey } from './queryKeys'

export type ImportBarListInput = Omit<BarListImportRequestParameters, 'fileName' | 'fileType'> & { file: File }

/** A file the form refused before sending (no request was made). */
export class BarListFileError extends Error {
  override name = 'BarListFileError'
}

/**
 * Imports a bar-list file (POST /api/admin/vault/bar-lists: its bytes as they are, with
 * its content type; a CSV's vault and as-of time as the query). Afterwards the lists, the
 * missing bars and every cached bar search are stale: they are asked again.
 */
export function useImportBarList() {
  const queryClient = useQueryClient()
  return useMutation<ApiBarListImport, Error, ImportBarListInput>({
    mutationFn: async ({ file, vault, asOf }) => {
      const request = barListImportRequest({ fileName: file.name, fileType: file.type, vault, asOf })
      if (!request.ok) throw new BarListFileError(request.message)
      return postBarList({ url: request.url, contentType: request.contentType, file })
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: barListsQueryKey })
      void queryClient.invalidateQueries({ queryKey: missingBarsQueryKey })
      void queryClient.invalidateQueries({ queryKey: ['vault-bars'] })
    },
  })
}
