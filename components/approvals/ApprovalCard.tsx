'use client'

import Link from 'next/link'
import { type ReactNode, useId, useState } from 'react'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { formatUtc, shortHex } from '@/components/mint/format'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'
import { TableHead } from '@/components/ui/Table'
import { BarCells, type BarColumn, BarColumnHeaders } from '@/components/vault/BarCells'
import { isBaseError } from '@/lib/errors/BaseError'
import type { OrderAwaitingApproval } from '@/lib/web/approvals/OrdersAwaitingApproval'
import { MAX_REJECTION_REASON } from '@/lib/web/approvals/rejectMintOrderSchema'
import { postApproval, postRejection } from './approvalsApi'

/** What an approver checks a bar by: which one, and the fine weight it backs. */
const approvalBarColumns: readonly BarColumn[] = ['serial', 'refiner', 'fineOz']

export type DecisionOutcome = { tone: 'ok' | 'error'; text: string }

export type ApprovalCardProps = {
  item: OrderAwaitingApproval
  /** a decision was made (or refused): the queue announces it and refreshes */
  onDecided: (outcome: DecisionOutcome) => void
}

/**
 * One order awaiting approval: what (amount), for whom (recipient), backed by which bars,
 * requested by whom and when. Approve asks for a confirmation; reject asks for the reason.
 * The viewer's own request is shown but cannot be decided on by them ("you requested this").
 */
export function ApprovalCard({ item, onDecided }: ApprovalCardProps) {
  const [confirming, setConfirming] = useState<'approve' | 'reject' | null>(null)
  const [busy, setBusy] = useState(false)
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | null>(null)
  const reasonId = useId()
  const titleId = useId()
  const what = `${item.amount} oz to ${shortHex(item.to)}`

  const decide = async (kind: 'approve' | 'reject') => {
    if (kind === 'reject' && reason.trim() === '') {
      setReasonError('Say why the order is rejected: the requester reads it.')
      return
    }
    setBusy(true)
    try {
      const order =
        kind === 'approve' ? await postApproval(item.orderId) : await postRejection(item.orderId, reason.trim())
      onDecided({
        tone: 'ok',
        text:
          order.status === 'rejected'
            ? `Rejected the mint of ${what}; its bars are free again.`
            : `Approved the mint of ${what}: it is queued for signing.`,
      })
    } catch (error) {
      onDecided({
        tone: 'error',
        text: `Could not ${kind} the mint of ${what}: ${isBaseError(error) ? error.message : 'the request failed.'}`,
      })
    } finally {
      setBusy(false)
      setConfirming(null)
    }
  }

  return (
    <Card aria-labelledby={titleId} data-order-id={item.orderId}>
      <CardHeader className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id={titleId}>
          Mint <span className="tabular">{item.amount}</span> fine oz
        </CardTitle>
        <Link href={`/mints/${item.orderId}`} className="font-mono text-xs text-stone-500 hover:text-stone-800">
          {item.orderId}
        </Link>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-x-8 gap-y-3 sm:grid-cols-2">
          <Field label="Recipient">
            <span className="break-all font-mono text-xs">{item.to}</span>
          </Field>
          <Field label="Requested by">
            {item.requestedBy}, <time dateTime={item.createdAt}>{formatUtc(item.createdAt)}</time>
          </Field>
          <Field label="Vault and receipt">
            {item.vault} · {item.receiptRef}
          </Field>
          <Field label="Receipt document SHA-256">
            <span className="break-all font-mono text-xs">{item.documentSha256}</span>
          </Field>
        </dl>
        <div className="overflow-x-auto rounded-md border border-stone-200">
          <table className="w-full text-sm">
            <caption className="sr-only">Bars backing this order</caption>
            <TableHead>
              <BarColumnHeaders columns={approvalBarColumns} pad="px-3 py-2" />
            </TableHead>
            <tbody>
              {item.bars.map((bar) => (
                <tr key={`${bar.serial}|${bar.refiner}`} className="border-t border-stone-100">
                  <BarCells bar={bar} columns={approvalBarColumns} pad="px-3 py-2" serialAs="cell" />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </CardContent>
      <CardFooter>
        {item.mine ? (
          <p className="text-sm text-stone-600">You requested this: a second person must approve or reject it.</p>
        ) : (
          <>
            <Button onClick={() => setConfirming('approve')} disabled={busy} aria-label={`Approve the mint of ${what}`}>
              Approve
            </Button>
            <Button
              variant="secondary"
              onClick={() => setConfirming('reject')}
              disabled={busy}
              aria-label={`Reject the mint of ${what}`}
            >
              Reject
            </Button>
          </>
        )}
      </CardFooter>

      <ConfirmDialog
        open={confirming === 'approve'}
        title={`Approve the mint of ${item.amount} oz?`}
        confirmLabel="Approve mint"
        dismissLabel="Not now"
        tone="primary"
        busy={busy}
        onDismiss={() => setConfirming(null)}
        onConfirm={() => void decide('approve')}
      >
        <p>
          {item.amount} fine oz will be minted to <span className="break-all font-mono text-xs">{item.to}</span>, backed
          by {item.bars.length} bar{item.bars.length === 1 ? '' : 's'} of {item.vault}, as {item.requestedBy} requested.
        </p>
        <p>The worker signs and sends it once you approve; the limits and the allowlist are checked again now.</p>
      </ConfirmDialog>

      <ConfirmDialog
        open={confirming === 'reject'}
        title={`Reject the mint of ${item.amount} oz?`}
        confirmLabel="Reject mint"
        dismissLabel="Keep it"
        busy={busy}
        onDismiss={() => {
          setConfirming(null)
          setReasonError(null)
        }}
        onConfirm={() => void decide('reject')}
      >
        <p>Nothing is minted; its bars are free again. {item.requestedBy} reads your reason on the order.</p>
        <label htmlFor={reasonId} className="block text-sm font-medium text-stone-800">
          Reason
        </label>
        <textarea
          id={reasonId}
          value={reason}
          maxLength={MAX_REJECTION_REASON}
          rows={3}
          required
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${reasonId}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value)
            setReasonError(null)
          }}
          className="w-full rounded-md border border-stone-300 px-3 py-2 text-sm text-stone-900"
        />
        {reasonError ? (
          <p id={`${reasonId}-error`} role="alert" className="text-sm text-red-700">
            {reasonError}
          </p>
        ) : null}
      </ConfirmDialog>
    </Card>
  )
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-1 text-sm text-stone-900">{children}</dd>
    </div>
  )
}
