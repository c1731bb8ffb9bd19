'use client'

import { useRouter } from 'next/navigation'
import { type ReactNode, useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
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
import type { ApiControlChange } from '@/lib/web/changes/apiTypes'
import { confirmChange, rejectChange } from './changesApi'

/** A decision waiting for its confirmation in the dialog. */
type Pending =
  | { decision: 'confirm'; change: ApiControlChange; signer?: KeySignerKind }
  | { decision: 'reject'; change: ApiControlChange }

export type ChangesAdminProps = {
  /** the changes awaiting a second admin, newest first */
  awaiting: ApiControlChange[]
  /** the latest decided changes, newest first */
  decided: ApiControlChange[]
  /** the signed-in admin: their own changes are another admin's to decide */
  currentEmail: string
  /** who signs a change that lives on chain: the injected wallet, and in dev mode also the dev signer */
  signers: readonly KeySignerKind[]
}

const STATUS_TONE: Record<ApiControlChange['status'], BadgeTone> = {
  awaiting_second_admin: 'warning',
  applied: 'success',
  rejected: 'neutral',
  pending: 'info',
  submitted: 'info',
  failed: 'danger',
}

/**
 * The control changes awaiting a second admin (recipients, limits, roles): who asked,
 * what changes, when; confirm (it applies at once) or reject with a reason, each behind a
 * dialog. An admin's own changes show no buttons: the API refuses them (403 self_approval).
 * Below, the latest decided changes.
 */
export function ChangesAdmin({ awaiting, decided, currentEmail, signers }: ChangesAdminProps) {
  const router = useRouter()
  const canChange = useCanChange()
  const [reason, setReason] = useState('')
  const [issue, setIssue] = useState<string | undefined>()
  const action = useConfirmedChange<Pending>({
    failure: 'The decision failed.',
    apply: async (p) => {
      if (p.decision === 'confirm') {
        const done = await confirmChange(p.change.changeId, p.signer ? keySigner(p.signer) : undefined)
        router.refresh()
        if (done.status === 'pending')
          return `Signed and confirmed: the worker sends it to the chain. ${p.change.summary}.`
        if (done.status === 'awaiting_second_admin') return `Signed: it awaits another admin. ${p.change.summary}.`
        return `Applied: ${p.change.summary}.`
      }
      await rejectChange(p.change.changeId, reason.trim())
      setReason('')
      router.refresh()
      return `Rejected: ${p.change.summary}.`
    },
  })
  const { pending, setPending, busy, message } = action

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle id="awaiting-title">Awaiting a second admin</CardTitle>
          <CardDescription>
            Recipient, limit and role changes apply only once an admin other than the one who asked confirms them. Each
            is checked again against the desk as it is when confirmed; every step is audited. A change to
            GoldMinter&apos;s rules is confirmed with your signing key, and the contract applies it.
          </CardDescription>
        </CardHeader>
        {message ? (
          <CardContent>
            <Alert tone={message.tone} title={message.text} />
          </CardContent>
        ) : null}
        <CardContent className="p-0">
          <ScrollX label="Changes awaiting a second admin">
            <ChangesTable
              labelledBy="awaiting-title"
              changes={awaiting}
              empty="Nothing awaits a second admin."
              actions={(c) =>
                !canChange ? null : c.requestedBy.toLowerCase() === currentEmail.toLowerCase() ? (
                  <span className="text-xs text-stone-500">yours: another admin decides</span>
                ) : (
                  <div className="flex justify-end gap-2">
                    {c.deadline === null ? (
                      <Button size="sm" disabled={busy} onClick={() => setPending({ decision: 'confirm', change: c })}>
                        Confirm
                      </Button>
                    ) : (
                      signers.map((signer) => (
                        <Button
                          key={signer}
                          size="sm"
                          variant={signer === 'wallet' ? 'primary' : 'secondary'}
                          disabled={busy}
                          onClick={() => setPending({ decision: 'confirm', change: c, signer })}
                        >
                          {signer === 'wallet' ? 'Sign and confirm' : 'Confirm with the dev key'}
                        </Button>
                      ))
                    )}
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={busy}
                      onClick={() => {
                        setIssue(undefined)
                        setPending({ decision: 'reject', change: c })
                      }}
                    >
                      Reject
                    </Button>
                  </div>
                )
              }
            />
          </ScrollX>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle id="decided-title">Recently decided</CardTitle>
        </CardHeader>
        <CardContent className="p-0">
          <ScrollX label="Recently decided changes">
            <ChangesTable labelledBy="decided-title" changes={decided} empty="No change decided yet." />
          </ScrollX>
        </CardContent>
      </Card>
      <ConfirmDialog
        title={pending ? `${pending.decision === 'confirm' ? 'Confirm' : 'Reject'}: ${pending.change.summary}?` : ''}
        confirmLabel={pending?.decision === 'confirm' ? 'Confirm change' : 'Reject change'}
        dismissLabel="Not now"
        tone={pending?.decision === 'confirm' ? 'primary' : 'danger'}
        {...action.dialog}
        onConfirm={() => {
          if (pending?.decision === 'reject' && reason.trim() === '') {
            setIssue('say why the change is rejected')
            return
          }
          action.dialog.onConfirm()
        }}
      >
        {pending ? <p>Asked for by {pending.change.requestedBy}.</p> : null}
        {pending?.decision === 'confirm' ? (
          <p>
            {pending.change.deadline === null
              ? 'It applies at once.'
              : 'Your key signs it; with enough admin signatures the worker sends it to GoldMinter.'}
          </p>
        ) : null}
        {pending?.decision === 'reject' ? (
          <ControlField id="reject-reason" label="Reason" value={reason} onChange={setReason} issue={issue} />
        ) : null}
      </ConfirmDialog>
    </div>
  )
}

type ChangesTableProps = {
  labelledBy: string
  changes: ApiControlChange[]
  empty: string
  actions?: (change: ApiControlChange) => ReactNode
}

function ChangesTable({ labelledBy, changes, empty, actions }: ChangesTableProps) {
  const columns = ['Change', 'Asked by', 'Asked', 'Status', ...(actions ? [''] : ['Decided'])]
  return (
    <table className="w-full min-w-[48rem] text-sm" aria-labelledby={labelledBy}>
      <TableHead>
        {columns.map((c) => (
          <ColumnHeader key={c} className="px-3 py-2">
            {c}
          </ColumnHeader>
        ))}
      </TableHead>
      <tbody>
        {changes.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className="px-3 py-4 text-stone-500">
              {empty}
            </td>
          </tr>
        ) : null}
        {changes.map((c) => (
          <tr key={c.changeId} className="border-t border-stone-100">
            <td className="px-3 py-2">
              <div className="font-medium">{c.summary}</div>
              <div className="font-mono text-xs text-stone-500">{c.kind}</div>
            </td>
            <td className="px-3 py-2">{c.requestedBy}</td>
            <td className="px-3 py-2 text-stone-600">{formatUtc(c.requestedAt)}</td>
            <td className="px-3 py-2">
              <Badge tone={STATUS_TONE[c.status]}>{c.status.replaceAll('_', ' ')}</Badge>
            </td>
            {actions ? (
              <td className="px-3 py-2 text-right">{actions(c)}</td>
            ) : (
              <td className="px-3 py-2 text-stone-600">
                {c.decidedBy ? `${c.decidedBy}, ${c.decidedAt ? formatUtc(c.decidedAt) : ''}` : ''}
                {c.reason ? <div className="text-xs">“{c.reason}”</div> : null}
                {c.txHash ? <div className="font-mono text-xs break-all">{c.txHash}</div> : null}
                {c.failureReason ? <div className="text-xs text-red-700">{c.failureReason}</div> : null}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
