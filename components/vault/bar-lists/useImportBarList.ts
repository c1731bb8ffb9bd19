'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ApiBarListImport } from '@/lib/web/vault/apiTypes'
import type { ImportProgress } from '@/lib/web/vault/importProgress'
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
 * missing bars and every cached bar search are stale: they are asked again. `progress` is the import's latest step
 * while it runs (the server's progress lines), null before and after.
 */
export function useImportBarList() {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<ImportProgress | null>(null)
  const mutation = useMutation<ApiBarListImport, Error, ImportBarListInput>({
    mutationFn: async ({ file, vault, asOf, custodianSignature }) => {
      const request = barListImportRequest({ fileName: file.name, fileType: file.type, vault, asOf })
      if (!request.ok) throw new BarListFileError(request.message)
      setProgress({ phase: 'receive', done: 0, total: file.size })
      try {
        return await postBarList({
          url: request.url,
          contentType: request.contentType,
          file,
          custodianSignature,
          onProgress: setProgress,
        })
      } finally {
        setProgress(null)
      }
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: barListsQueryKey })
      void queryClient.invalidateQueries({ queryKey: missingBarsQueryKey })
      void queryClient.invalidateQueries({ queryKey: ['vault-bars'] })
    },
  })
  return { ...mutation, progress }
}
