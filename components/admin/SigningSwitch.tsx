'use client'

import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { ControlField } from '@/components/admin/controls/ControlField'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { formatUtc } from '@/components/ui/formatUtc'
import { ApiError } from '@/lib/web/errors/api'
import type { ApiSigningState } from '@/lib/web/signingSwitch/readSigningState'

export type SigningSwitchProps = { state: ApiSigningState }

/**
 * The stop switch on every admin page (docs/decisions/052-stop-switch.md): while signing runs, one admin stops it
 * at once, with a reason (POST /api/admin/signing/stop); while stopped, a banner says since when, by whom and why,
 * and an admin asks to resume (POST /api/admin/signing/resume), which another admin confirms on /admin/changes.
 */
export function SigningSwitch({ state }: SigningSwitchProps) {
  const router = useRouter()
  const canChange = useCanChange()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const [issue, setIssue] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const action = state.stopped ? 'resume' : 'stop'

  const run = async () => {
    if (reason.trim() === '') {
      setIssue('say why')
      return
    }
    setBusy(true)
    try {
      const res = await fetch(`/api/admin/signing/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ reason: reason.trim() }),
      })
      if (!res.ok) throw await ApiError.from(res)
      setMessage({
        tone: 'success',
        text: action === 'stop' ? 'Signing is stopped.' : 'The resume awaits a second admin on the Changes page.',
      })
      setReason('')
      setOpen(false)
      router.refresh()
    } catch (error) {
      setOpen(false)
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The switch did not change.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="mb-4 space-y-2">
      {state.stopped ? (
        <Alert
          tone="error"
          title={`Signing is stopped${state.auto ? ' by the reserve check' : ''}: no worker signs a new transaction.`}
        >
          <p>
            Since {formatUtc(state.changedAt)} by {state.changedBy ?? 'unknown'}
            {state.reason ? `: ${state.reason}` : ''}. Queued work waits and nothing is lost; what was sent is still
            confirmed.
          </p>
        </Alert>
      ) : null}
      {message ? <Alert tone={message.tone} title={message.text} /> : null}
      {canChange ? (
        <div className="flex justify-end">
          <Button
            size="sm"
            variant={state.stopped ? 'secondary' : 'danger'}
            onClick={() => {
              setIssue(undefined)
              setMessage(null)
              setOpen(true)
            }}
          >
            {state.stopped ? 'Ask to resume signing' : 'Stop all signing'}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={open}
        title={state.stopped ? 'Ask to resume signing?' : 'Stop all signing now?'}
        confirmLabel={state.stopped ? 'Ask to resume' : 'Stop signing'}
        dismissLabel="Not now"
        tone={state.stopped ? 'primary' : 'danger'}
        busy={busy}
        onConfirm={run}
        onDismiss={() => setOpen(false)}
      >
        <p>
          {state.stopped
            ? 'Another admin confirms the resume; the workers then sign again.'
            : 'Within a second no worker signs a new transaction. Resuming needs a second admin.'}
        </p>
        <ControlField id="signing-reason" label="Reason" value={reason} onChange={setReason} issue={issue} />
      </ConfirmDialog>
    </div>
  )
}
