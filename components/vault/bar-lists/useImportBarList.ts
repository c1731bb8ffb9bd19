'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ApiBarListImport } from '@/lib/web/vault/apiTypes'
import { type BarListImportRequestParameters, barListImportRequest } from '../barListImportRequest'
import { postBarList } from '../vaultApi'
import { barListsQueryKey, missingBarsQueryKey } from './queryKeys'

export type ImportBarListInput = Omit<BarListImportRequestParameters, 'fileName' | 'fileType'> & {
  file: File
  /** the custodian's signature of the list, sent as the Custodian-Signature header */
  custodianSignature: string
}

/** A file the form refused before sending (no request was made). */
export class BarListFileError extends Error {
  override name = 'BarListFileError'
}

/**
 * Imports a bar-list file (POST /api/admin/vault/bar-lists: its bytes as they are, with
 * its content type and the custodian's signature; a CSV's vault and as-of time as the query). Afterwards the lists, the
 * missing bars and every cached bar search are stale: they are asked again.
 */
export function useImportBarList() {
  const queryClient = useQueryClient()
  return useMutation<ApiBarListImport, Error, ImportBarListInput>({
    mutationFn: async ({ file, vault, asOf, custodianSignature }) => {
      const request = barListImportRequest({ fileName: file.name, fileType: file.type, vault, asOf })
      if (!request.ok) throw new BarListFileError(request.message)
      return postBarList({ url: request.url, contentType: request.contentType, file, custodianSignature })
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: barListsQueryKey })
      void queryClient.invalidateQueries({ queryKey: missingBarsQueryKey })
      void queryClient.invalidateQueries({ queryKey: ['vault-bars'] })
    },
  })
}
