'use client'

import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ControlField } from '@/components/admin/controls/ControlField'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Label } from '@/components/ui/Label'
import { type KeySignerKind, keySigner } from '@/components/wallet/keySigners'
import type { ProposedOnChainChangeKind } from '@/lib/changes/onChainChanges'
import { ApiError } from '@/lib/web/errors/api'
import { proposeOnChainChange } from './changesApi'
import { ON_CHAIN_CHANGE_FORMS, onChainChangeParams } from './onChainChangeFields'

export type OnChainChangeFormProps = {
  /** who may sign on this page: the injected wallet, and in dev mode also the dev signer */
  signers: readonly KeySignerKind[]
}

const KINDS = Object.keys(ON_CHAIN_CHANGE_FORMS) as ProposedOnChainChangeKind[]

/**
 * Proposes a change to GoldMinter's rules (approver and admin keys, the approval rule, the rate limit,
 * custodian keys): the admin's own key signs it here, another admin confirms it with theirs, and the worker
 * relays both signatures to GoldMinter, which applies it.
 */
export function OnChainChangeForm({ signers }: OnChainChangeFormProps) {
  const router = useRouter()
  const canChange = useCanChange()
  const [kind, setKind] = useState<ProposedOnChainChangeKind>('approver.add')
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const [issues, setIssues] = useState<Record<string, string>>({})
  if (!canChange) return null
  const form = ON_CHAIN_CHANGE_FORMS[kind]

  const propose = async (signer: KeySignerKind) => {
    setBusy(true)
    setMessage(null)
    setIssues({})
    try {
      await proposeOnChainChange({ kind, params: onChainChangeParams(kind, values) }, keySigner(signer))
      setValues({})
      setMessage({
        tone: 'success',
        text: `Signed and proposed: ${form.label.toLowerCase()}. Another admin confirms it.`,
      })
      router.refresh()
    } catch (error) {
      const fields: Record<string, string> = {}
      if (error instanceof ApiError) for (const i of error.issues) fields[i.path.replace(/^params\./, '')] = i.message
      setIssues(fields)
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The change was not proposed.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change GoldMinter&apos;s rules</CardTitle>
        <CardDescription>
          Signed with your key now, and with a second admin&apos;s when they confirm; the worker then sends both
          signatures to the contract, which applies the change only with enough admins&apos; signatures.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {message ? <Alert tone={message.tone} title={message.text} /> : null}
        <div>
          <Label htmlFor="onchain-kind">Change</Label>
          <select
            id="onchain-kind"
            value={kind}
            disabled={busy}
            onChange={(e) => {
              setKind(e.target.value as ProposedOnChainChangeKind)
              setValues({})
              setIssues({})
            }}
            className="h-9 w-full rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {ON_CHAIN_CHANGE_FORMS[k].label}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {form.fields.map((f) => (
            <ControlField
              key={`${kind}-${f.name}`}
              id={`onchain-${f.name}`}
              label={f.label}
              value={values[f.name] ?? ''}
              placeholder={f.placeholder}
              onChange={(v) => setValues((c) => ({ ...c, [f.name]: v }))}
              issue={issues[f.name]}
            />
          ))}
        </div>
        <div className="flex flex-wrap gap-2">
          {signers.includes('wallet') ? (
            <Button disabled={busy} onClick={() => propose('wallet')}>
              Sign and propose
            </Button>
          ) : null}
          {signers.includes('dev') ? (
            <Button variant="secondary" disabled={busy} onClick={() => propose('dev')}>
              Sign with the dev key and propose
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  )
}
