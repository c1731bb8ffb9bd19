'use client'

import { useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { shortId } from '@/components/admin/format'
import { Button } from '@/components/ui/Button'
import type { JobState } from '@/lib/jobs/jobStates'
import { canCancel, canRetry } from './jobActionRules'
import { useJobActions } from './useJobActions'

export type JobActionsProps = {
  job: { id: string; task: string; state: JobState; maxAttempts: number; orderId: string | null }
  size?: 'sm' | 'md'
  /** "Retry" / "Cancel" in a table row; "Retry job" / "Cancel job" on the detail page */
  compact?: boolean
}

/** Retry and cancel of one job, each behind a confirmation dialog; the outcome is announced. None for an auditor. */
export function JobActions({ job, size = 'sm', compact = false }: JobActionsProps) {
  const canChange = useCanChange()
  const { retry, cancel } = useJobActions()
  const [confirming, setConfirming] = useState<'retry' | 'cancel' | null>(null)
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const busy = retry.isPending || cancel.isPending
  const order = job.orderId ? `order ${shortId(job.orderId)}` : null

  if (!canChange) return null
  if (!canRetry(job.state) && !canCancel(job.state)) {
    return job.state === 'running' ? (
      <span className="text-xs text-stone-500">running: no action until it ends</span>
    ) : null
  }

  return (
    <div className={`inline-flex items-center gap-2 ${compact ? 'flex-nowrap' : 'flex-wrap'}`}>
      {canRetry(job.state) ? (
        <Button
          size={size}
          variant="primary"
          onClick={() => setConfirming('retry')}
          disabled={busy}
          aria-label={`Retry job ${job.id}`}
        >
          {compact ? 'Retry' : 'Retry job'}
        </Button>
      ) : null}
      {canCancel(job.state) ? (
        <Button
          size={size}
          variant="secondary"
          onClick={() => setConfirming('cancel')}
          disabled={busy}
          aria-label={`Cancel job ${job.id}`}
        >
          {compact ? 'Cancel' : 'Cancel job'}
        </Button>
      ) : null}
      {message ? (
        <span
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={`text-xs ${message.tone === 'error' ? 'text-red-700' : 'text-emerald-700'}`}
        >
          {message.text}
        </span>
      ) : null}

      <ConfirmDialog
        open={confirming === 'retry'}
        title={`Retry job #${job.id}?`}
        confirmLabel="Retry job"
        dismissLabel="Not now"
        tone="primary"
        busy={retry.isPending}
        onDismiss={() => setConfirming(null)}
        onConfirm={() =>
          retry.mutate(job.id, {
            onSuccess: (r) =>
              setMessage({
                tone: 'ok',
                text: `Job #${r.jobId} queued again${r.orderStatus ? `; order ${r.orderStatus}` : ''}.`,
              }),
            onError: (e) => setMessage({ tone: 'error', text: e.message }),
            onSettled: () => setConfirming(null),
          })
        }
      >
        <p>
          The {job.task} job runs again now with its attempts reset (0 of {job.maxAttempts})
          {order ? <>, and {order} goes back to pending (or submitted, if its transaction is already signed)</> : null}.
        </p>
        <p>Fix the cause first (for example unfreeze the recipient), or it will fail the same way.</p>
      </ConfirmDialog>

      <ConfirmDialog
        open={confirming === 'cancel'}
        title={`Cancel job #${job.id}?`}
        confirmLabel="Cancel job"
        dismissLabel="Keep job"
        busy={cancel.isPending}
        onDismiss={() => setConfirming(null)}
        onConfirm={() =>
          cancel.mutate(job.id, {
            onSuccess: (r) =>
              setMessage({
                tone: 'ok',
                text: `Job #${r.jobId} cancelled${r.orderStatus ? `; order ${r.orderStatus}` : ''}${r.releasedNonce ? `; nonce ${r.releasedNonce.nonce} released` : ''}.`,
              }),
            onError: (e) => setMessage({ tone: 'error', text: e.message }),
            onSettled: () => setConfirming(null),
          })
        }
      >
        <p>
          The job stops for good
          {order ? <> and {order} becomes cancelled, with every other waiting job of that order</> : null}. This cannot
          be undone.
        </p>
        {order ? (
          <p>
            If a nonce was reserved for the order, it is released: the worker fills it with a zero-value transfer at a
            higher fee so later mints are not blocked. If the original mint transaction was already broadcast, it can
            still be mined before that.
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  )
}
