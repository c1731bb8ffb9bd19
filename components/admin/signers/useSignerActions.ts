'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { keySigner } from '@/components/wallet/keySigners'
import type { KeySignerKind } from '@/lib/web/signing/availableSigners'
import { proposeNonceCancel, resyncSigner, speedUpNonce } from './signersApi'

/**
 * Speed up, cancel and resync, each refreshing the admin's views afterwards (the dashboard's signers, the changes),
 * so the panel shows the nonce's new fees or its cancel awaiting a second admin within a moment.
 */
export function useSignerActions() {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] })
  return {
    speedUp: useMutation({ mutationFn: speedUpNonce, onSettled: refresh }),
    cancel: useMutation({
      mutationFn: (p: { signerAddress: string; nonce: number; signer: KeySignerKind }) =>
        proposeNonceCancel({ ...p, signer: keySigner(p.signer) }),
      onSettled: refresh,
    }),
    resync: useMutation({ mutationFn: resyncSigner, onSettled: refresh }),
  }
}
