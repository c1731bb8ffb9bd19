'use client'

import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { ControlField } from '@/components/admin/controls/ControlField'
import { useConfirmedChange } from '@/components/admin/useConfirmedChange'
import { Alert } from '@/components/ui/Alert'
import { Badge, type BadgeTone } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import { type KeySignerKind, keySigner } from '@/components/wallet/keySigners'
import type { ApiComplianceOperation } from '@/lib/web/compliance/apiTypes'
import { approveOperation, rejectOperation } from './complianceApi'

/** A decision waiting for its confirmation in the dialog. */
type Pending =
  | { decision: 'approve'; operation: ApiComplianceOperation; signer: KeySignerKind }
  | { decision: 'reject'; operation: ApiComplianceOperation }

export type ComplianceOperationsProps = {
  title: string
  operations: ApiComplianceOperation[]
  /** the signed-in person: the operations they asked for are another person's to decide */
  viewerEmail: string
  /** whether the viewer may sign or reject (an approver or an admin; never an auditor) */
  canDecide: boolean
  /** who signs: the injected wallet, and in dev mode also the dev signer */
  signers: readonly KeySignerKind[]
  empty: string
}

const STATUS_TONE: Record<ApiComplianceOperation['status'], BadgeTone> = {
  awaiting_approval: 'warning',
  pending: 'info',
  submitted: 'info',
  applied: 'success',
  failed: 'danger',
  rejected: 'neutral',
  cancelled: 'neutral',
}

/** What the operation does, as a sentence for people. */
export function describeOperation(op: Pick<ApiComplianceOperation, 'action' | 'account'>): string {
  if (op.action === 'pause') return 'Pause the token'
  if (op.action === 'unpause') return 'Unpause the token'
  return `${op.action === 'freeze' ? 'Freeze' : 'Unfreeze'} ${op.account ?? ''}`
}

/**
 * Compliance operations with their status, signatures and timeline; for an eligible viewer (an approver or admin
 * who did not ask for it) those awaiting approval offer Approve (their key signs the operation's intent: the
 * injected wallet, or the dev signer in dev mode) and Reject with a reason, each behind a dialog.
 */
export function ComplianceOperations({
  title,
  operations,
  viewerEmail,
  canDecide,
  signers,
  empty,
}: ComplianceOperationsProps) {
  const router = useRouter()
  const [reason, setReason] = useState('')
  const [issue, setIssue] = useState<string | undefined>()
  const action = useConfirmedChange<Pending>({
    failure: 'The decision failed.',
    apply: async (p) => {
      const what = describeOperation(p.operation)
      if (p.decision === 'approve') {
        const done = await approveOperation(p.operation.operationId, keySigner(p.signer))
        router.refresh()
        return done.status === 'pending'
          ? `Signed: the worker sends it to the chain. ${what}.`
          : `Signed: it awaits another approver. ${what}.`
      }
      await rejectOperation(p.operation.operationId, reason.trim())
      setReason('')
      router.refresh()
      return `Rejected: ${what}.`
    },
  })
  const { pending, setPending, busy, message } = action
  const titleId = `${title.replaceAll(' ', '-').toLowerCase()}-title`

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
        <CardDescription>
          Each operation is signed by an approver other than the admin who asked, verified again by the worker and by
          the contract.
        </CardDescription>
      </CardHeader>
      {message ? (
        <CardContent>
          <Alert tone={message.tone} title={message.text} />
        </CardContent>
      ) : null}
      <CardContent className="p-0">
        <ScrollX label="Compliance operations">
          <table className="w-full min-w-[56rem] text-sm" aria-labelledby={titleId}>
            <TableHead>
              {['Operation', 'Asked by', 'Status', 'Timeline', ''].map((c) => (
                <ColumnHeader key={c} className="px-3 py-2">
                  {c}
                </ColumnHeader>
              ))}
            </TableHead>
            <tbody>
              {operations.length === 0 ? (
                <tr>
                  <td colSpan={5} className="px-3 py-4 text-stone-500">
                    {empty}
                  </td>
                </tr>
              ) : null}
              {operations.map((op) => {
                const own = op.requestedBy.toLowerCase() === viewerEmail.toLowerCase()
                return (
                  <tr key={op.operationId} className="border-t border-stone-100 align-top">
                    <td className="px-3 py-2">
                      <div className="font-medium break-all">{describeOperation(op)}</div>
                      <div className="text-xs text-stone-600">“{op.reason}”</div>
                      {op.batchId ? <div className="font-mono text-xs text-stone-500">batch {op.batchId}</div> : null}
                    </td>
                    <td className="px-3 py-2">
                      {op.requestedBy}
                      <div className="text-xs text-stone-600">{formatUtc(op.requestedAt)}</div>
                    </td>
                    <td className="px-3 py-2">
                      <Badge tone={STATUS_TONE[op.status]}>{op.status.replaceAll('_', ' ')}</Badge>
                      {op.signatures.map((s) => (
                        <div key={s.signer} className="text-xs text-stone-600">
                          signed by {s.user}
                        </div>
                      ))}
                      {op.txHash ? <div className="font-mono text-xs break-all">{op.txHash}</div> : null}
                      {op.failureReason ? <div className="text-xs text-red-700">{op.failureReason}</div> : null}
                      {op.rejectionReason ? (
                        <div className="text-xs text-stone-600">
                          rejected by {op.rejectedBy}: “{op.rejectionReason}”
                        </div>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">
                      <details>
                        <summary className="cursor-pointer text-xs text-stone-600">{op.timeline.length} events</summary>
                        <ol className="mt-1 space-y-1 text-xs">
                          {op.timeline.map((e) => (
                            <li key={e.id}>
                              <span className="text-stone-500">{formatUtc(e.at)}</span> <strong>{e.event}</strong>{' '}
                              {e.detail}
                            </li>
                          ))}
                        </ol>
                      </details>
                    </td>
                    <td className="px-3 py-2 text-right">
                      {!canDecide || op.status !== 'awaiting_approval' ? null : own ? (
                        <span className="text-xs text-stone-500">yours: another person decides</span>
                      ) : (
                        <div className="flex justify-end gap-2">
                          {signers.map((signer) => (
                            <Button
                              key={signer}
                              size="sm"
                              variant={signer === 'wallet' ? 'primary' : 'secondary'}
                              disabled={busy}
                              onClick={() => setPending({ decision: 'approve', operation: op, signer })}
                            >
                              {signer === 'wallet' ? 'Sign and approve' : 'Approve with the dev key'}
                            </Button>
                          ))}
                          <Button
                            size="sm"
                            variant="danger"
                            disabled={busy}
                            onClick={() => {
                              setIssue(undefined)
                              setPending({ decision: 'reject', operation: op })
                            }}
                          >
                            Reject
                          </Button>
                        </div>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </ScrollX>
      </CardContent>
      <ConfirmDialog
        title={
          pending
            ? `${pending.decision === 'approve' ? 'Approve' : 'Reject'}: ${describeOperation(pending.operation)}?`
            : ''
        }
        confirmLabel={pending?.decision === 'approve' ? 'Sign and approve' : 'Reject operation'}
        dismissLabel="Not now"
        tone={pending?.decision === 'approve' ? 'primary' : 'danger'}
        {...action.dialog}
        onConfirm={() => {
          if (pending?.decision === 'reject' && reason.trim() === '') {
            setIssue('say why the operation is rejected')
            return
          }
          action.dialog.onConfirm()
        }}
      >
        {pending ? (
          <p>
            Asked for by {pending.operation.requestedBy}: “{pending.operation.reason}”.
          </p>
        ) : null}
        {pending?.decision === 'approve' ? (
          <p>Your key signs its intent; with enough signatures the worker sends it to GoldMinter.</p>
        ) : null}
        {pending?.decision === 'reject' ? (
          <ControlField
            id="compliance-reject-reason"
            label="Reason"
            value={reason}
            onChange={setReason}
            issue={issue}
          />
        ) : null}
      </ConfirmDialog>
    </Card>
  )
}
