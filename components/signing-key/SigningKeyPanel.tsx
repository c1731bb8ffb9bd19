'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { formatUtc } from '@/components/ui/formatUtc'
import { type KeySignerKind, keySigner } from '@/components/wallet/keySigners'
import { refusalSentence } from '@/components/wallet/refusalSentence'
import { fetchSigningKeys, postSigningKey, signingKeysQueryKey } from './signingKeyApi'

export type SigningKeyPanelProps = {
  /** the injected wallet, and in dev mode the dev signer too */
  signers: readonly KeySignerKind[]
}

type Outcome = { tone: 'success' | 'error'; text: string }

/**
 * The signed-in user's signing keys: those bound to them, and "Bind this wallet", which
 * has the wallet sign (personal_sign) the text GET /api/me/signing-key gives, then posts
 * the address and the signature. In dev mode the dev key can be bound the same way.
 */
export function SigningKeyPanel({ signers }: SigningKeyPanelProps) {
  const queryClient = useQueryClient()
  const keys = useQuery({ queryKey: signingKeysQueryKey, queryFn: fetchSigningKeys })
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)

  const bind = async (kind: KeySignerKind) => {
    if (!keys.data) return
    setBusy(true)
    setOutcome(null)
    try {
      const signed = await keySigner(kind).personalSign({ message: keys.data.text })
      await postSigningKey(signed)
      setOutcome({ tone: 'success', text: `Bound the key ${signed.address} to you.` })
    } catch (error) {
      setOutcome({ tone: 'error', text: `Could not bind the key: ${refusalSentence(error)}` })
    } finally {
      setBusy(false)
      void queryClient.invalidateQueries({ queryKey: signingKeysQueryKey })
    }
  }

  return (
    <div className="space-y-4">
      {outcome ? (
        <Alert tone={outcome.tone} aria-live="polite">
          {outcome.text}
        </Alert>
      ) : null}
      {keys.isError ? (
        <Alert tone="error">{`Your signing keys could not be loaded: ${refusalSentence(keys.error)}`}</Alert>
      ) : !keys.data ? (
        <p className="text-sm text-stone-500">Loading your signing keys…</p>
      ) : keys.data.keys.length === 0 ? (
        <p className="text-sm text-stone-600">No key is bound to you yet.</p>
      ) : (
        <ul aria-label="Bound keys" className="divide-y divide-stone-100 rounded-md border border-stone-200 bg-white">
          {keys.data.keys.map((key) => (
            <li key={key.address} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
              <span className="break-all font-mono text-sm">{key.address}</span>
              <span className="text-xs text-stone-500">
                bound <time dateTime={key.boundAt}>{formatUtc(key.boundAt)}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
      {keys.data ? (
        <details className="text-sm text-stone-600">
          <summary>The text your key signs to be bound</summary>
          <pre className="mt-2 whitespace-pre-wrap rounded-md bg-stone-50 p-3 font-mono text-xs">{keys.data.text}</pre>
        </details>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {signers.includes('wallet') ? (
          <Button onClick={() => void bind('wallet')} disabled={busy || !keys.data}>
            Bind this wallet
          </Button>
        ) : null}
        {signers.includes('dev') ? (
          <Button variant="secondary" onClick={() => void bind('dev')} disabled={busy || !keys.data}>
            Bind my dev key
          </Button>
        ) : null}
      </div>
    </div>
  )
}
