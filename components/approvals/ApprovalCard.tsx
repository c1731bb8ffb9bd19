'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { type ReactNode, useId, useState } from 'react'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { shortHex } from '@/components/mint/format'
import { fetchSigningKeys, signingKeysQueryKey } from '@/components/signing-key/signingKeyApi'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { TableHead } from '@/components/ui/Table'
import { BarCells, type BarColumn, BarColumnHeaders } from '@/components/vault/BarCells'
import { type KeySignerKind, keySigner } from '@/components/wallet/keySigners'
import type { OrderAwaitingApproval } from '@/lib/web/approvals/OrdersAwaitingApproval'
import { MAX_REJECTION_REASON } from '@/lib/web/approvals/rejectMintOrderSchema'
import { ApprovalIntent } from './ApprovalIntent'
import { approvalRefusalMessage } from './approvalRefusalMessage'
import { fetchMintApproval, mintApprovalQueryKey, postRejection } from './approvalsApi'
import { describeIntent } from './describeIntent'
import { signAndApprove } from './signAndApprove'

/** What an approver checks a bar by: which one, and the fine weight it backs. */
const approvalBarColumns: readonly BarColumn[] = ['serial', 'refiner', 'fineOz']

export type DecisionOutcome = { tone: 'ok' | 'error'; text: string }

export type ApprovalCardProps = {
  item: OrderAwaitingApproval
  /** the signed-in approver: their own signature, once given, is not asked for again */
  viewerEmail: string
  /** who may sign on this page: the injected wallet, and in dev mode also the dev signer */
  signers: readonly KeySignerKind[]
  /** a decision was made (or refused): the queue announces it and refreshes */
  onDecided: (outcome: DecisionOutcome) => void
}

/**
 * One order awaiting approval: what (amount), for whom (recipient), backed by which bars,
 * requested by whom and when, and the intent an approver signs (EIP-712, from GET
 * .../approval) with the signatures so far. "Sign and approve" asks for a confirmation,
 * then the wallet (or, in dev mode, the dev signer) signs and the signature is posted;
 * reject asks for the reason. The viewer's own request is shown but cannot be decided on
 * by them ("you requested this").
 */
export function ApprovalCard({ item, viewerEmail, signers, onDecided }: ApprovalCardProps) {
  const [confirming, setConfirming] = useState<KeySignerKind | 'reject' | null>(null)
  const [busy, setBusy] = useState(false)
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | null>(null)
  const reasonId = useId()
  const titleId = useId()
  const what = `${item.amount} oz to ${shortHex(item.to)}`
  const queryClient = useQueryClient()
  const approval = useQuery({
    queryKey: mintApprovalQueryKey(item.orderId),
    queryFn: () => fetchMintApproval(item.orderId),
    enabled: !item.mine,
  })
  // the wallet's account is checked against these before it is asked to sign (the server checks again)
  const keys = useQuery({ queryKey: signingKeysQueryKey, queryFn: fetchSigningKeys, enabled: !item.mine })
  const intent = approval.data ? describeIntent({ approval: approval.data, order: item, now: new Date() }) : null
  const signedByViewer = approval.data?.signatures.some((s) => s.user === viewerEmail) ?? false
  const approving = confirming === 'reject' ? null : confirming
  const canSign = intent !== null && intent.mismatches.length === 0 && !intent.expired && !signedByViewer

  const approve = async (kind: KeySignerKind) => {
    if (!approval.data) return
    const signed = approval.data.signatures.length + 1
    const required = approval.data.required
    setBusy(true)
    try {
      const order = await signAndApprove(keySigner(kind), {
        orderId: item.orderId,
        approval: approval.data,
        bound: kind === 'wallet' ? keys.data?.keys.map((k) => k.address) : undefined,
      })
      onDecided({
        tone: 'ok',
        text:
          order.status === 'awaiting_approval'
            ? `Signed the mint of ${what}: ${signed} of ${required} signatures, it waits for another approver.`
            : `Approved the mint of ${what}: it is queued for signing.`,
      })
    } catch (error) {
      onDecided({ tone: 'error', text: `Could not approve the mint of ${what}: ${approvalRefusalMessage(error)}` })
    } finally {
      setBusy(false)
      setConfirming(null)
      void queryClient.invalidateQueries({ queryKey: mintApprovalQueryKey(item.orderId) })
    }
  }

  const reject = async () => {
    if (reason.trim() === '') {
      setReasonError('Say why the order is rejected: the requester reads it.')
      return
    }
    setBusy(true)
    try {
      await postRejection(item.orderId, reason.trim())
      onDecided({ tone: 'ok', text: `Rejected the mint of ${what}; its bars are free again.` })
    } catch (error) {
      onDecided({ tone: 'error', text: `Could not reject the mint of ${what}: ${approvalRefusalMessage(error)}` })
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
        {item.mine ? null : approval.data && intent ? (
          <ApprovalIntent approval={approval.data} intent={intent} />
        ) : approval.isError ? (
          <Alert tone="error">{`The intent to sign could not be loaded: ${approvalRefusalMessage(approval.error)}`}</Alert>
        ) : (
          <p className="text-sm text-stone-500">Loading the intent to sign…</p>
        )}
      </CardContent>
      <CardFooter>
        {item.mine ? (
          <p className="text-sm text-stone-600">You requested this: a second person must approve or reject it.</p>
        ) : (
          <>
            {signedByViewer ? (
              <p className="text-sm text-stone-600">You signed this: it waits for another approver.</p>
            ) : null}
            {signers.includes('wallet') ? (
              <Button
                onClick={() => setConfirming('wallet')}
                disabled={busy || !canSign}
                aria-label={`Sign and approve the mint of ${what}`}
              >
                Sign and approve
              </Button>
            ) : null}
            {signers.includes('dev') ? (
              <Button
                variant="secondary"
                onClick={() => setConfirming('dev')}
                disabled={busy || !canSign}
                aria-label={`Sign the mint of ${what} with the dev key`}
              >
                Sign with the dev key
              </Button>
            ) : null}
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
        open={approving !== null}
        title={`Sign and approve the mint of ${item.amount} oz?`}
        confirmLabel={approving === 'dev' ? 'Sign with the dev key' : 'Sign with your wallet'}
        dismissLabel="Not now"
        tone="primary"
        busy={busy}
        onDismiss={() => setConfirming(null)}
        onConfirm={() => {
          if (approving !== null) void approve(approving)
        }}
      >
        <p>
          {item.amount} fine oz will be minted to <span className="break-all font-mono text-xs">{item.to}</span>, backed
          by {item.bars.length} bar{item.bars.length === 1 ? '' : 's'} of {item.vault}, as {item.requestedBy} requested.
        </p>
        <p>
          {approving === 'dev'
            ? 'The dev signer signs this intent with your dev key (dev mode only).'
            : 'Your wallet shows the same intent: check the recipient, the amount and the contract there before you sign.'}{' '}
          Once enough approvers have signed, the worker checks every signature again, then sends it.
        </p>
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
        onConfirm={() => void reject()}
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
