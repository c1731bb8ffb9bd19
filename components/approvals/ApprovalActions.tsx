'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { fetchSigningKeys, signingKeysQueryKey } from '@/components/signing-key/signingKeyApi'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { CardContent, CardFooter } from '@/components/ui/Card'
import { type KeySignerKind, keySigner } from '@/components/wallet/keySigners'
import { shortHex } from '@/lib/mint/shortHex'
import { MAX_REJECTION_REASON } from '@/lib/web/approvals/rejectMintOrderSchema'
import { ApprovalIntent } from './ApprovalIntent'
import { approvalRefusalMessage } from './approvalRefusalMessage'
import { fetchMintApproval, mintApprovalQueryKey, postRejection } from './approvalsApi'
import { describeIntent } from './describeIntent'
import { signAndApprove } from './signAndApprove'

export type DecisionOutcome = { tone: 'ok' | 'error'; text: string }

/** What the approver is asked to decide on: the order as the page lists it. */
export type ApprovalSubject = {
  orderId: string
  /** fine oz, 3 decimals */
  amount: string
  to: string
  /** e-mail of the requester */
  requestedBy: string
  vault: string
  barCount: number
}

export type ApprovalActionsProps = {
  order: ApprovalSubject
  /** the viewer requested it: shown, but not theirs to decide (four eyes) */
  mine: boolean
  /** the signed-in approver: their own signature, once given, is not asked for again */
  viewerEmail: string
  /** who may sign on this page: the injected wallet, and in dev mode also the dev signer */
  signers: readonly KeySignerKind[]
  /** a decision was made (or refused): the page announces it and refreshes */
  onDecided: (outcome: DecisionOutcome) => void
}

/**
 * THE signing of an approval, on the approvals page's cards and on the order page: the
 * intent an approver signs (EIP-712, from GET .../approval) with the signatures so far,
 * then "Sign and approve" behind a confirmation, the wallet (or, in dev mode, the dev
 * signer) signs and the signature is posted; reject asks for the reason. The viewer's own
 * request cannot be decided on by them ("you requested this"). Rendered inside a Card: the
 * intent as its content, the buttons as its footer.
 */
export function ApprovalActions({ order, mine, viewerEmail, signers, onDecided }: ApprovalActionsProps) {
  const [confirming, setConfirming] = useState<KeySignerKind | 'reject' | null>(null)
  const [busy, setBusy] = useState(false)
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | null>(null)
  const reasonId = useId()
  const what = `${order.amount} oz to ${shortHex(order.to)}`
  const queryClient = useQueryClient()
  const approval = useQuery({
    queryKey: mintApprovalQueryKey(order.orderId),
    queryFn: () => fetchMintApproval(order.orderId),
    enabled: !mine,
  })
  // the wallet's account is checked against these before it is asked to sign (the server checks again)
  const keys = useQuery({ queryKey: signingKeysQueryKey, queryFn: fetchSigningKeys, enabled: !mine })
  const intent = approval.data ? describeIntent({ approval: approval.data, order, now: new Date() }) : null
  const signedByViewer = approval.data?.signatures.some((s) => s.user === viewerEmail) ?? false
  const approving = confirming === 'reject' ? null : confirming
  const canSign = intent !== null && intent.mismatches.length === 0 && !intent.expired && !signedByViewer

  const approve = async (kind: KeySignerKind) => {
    if (!approval.data) return
    const signed = approval.data.signatures.length + 1
    const required = approval.data.required
    setBusy(true)
    try {
      const decided = await signAndApprove(keySigner(kind), {
        orderId: order.orderId,
        approval: approval.data,
        bound: kind === 'wallet' ? keys.data?.keys.map((k) => k.address) : undefined,
      })
      onDecided({
        tone: 'ok',
        text:
          decided.status === 'awaiting_approval'
            ? `Signed the mint of ${what}: ${signed} of ${required} signatures, it waits for another approver.`
            : `Approved the mint of ${what}: it is queued for signing.`,
      })
    } catch (error) {
      onDecided({ tone: 'error', text: `Could not approve the mint of ${what}: ${approvalRefusalMessage(error)}` })
    } finally {
      setBusy(false)
      setConfirming(null)
      void queryClient.invalidateQueries({ queryKey: mintApprovalQueryKey(order.orderId) })
    }
  }

  const reject = async () => {
    if (reason.trim() === '') {
      setReasonError('Say why the order is rejected: the requester reads it.')
      return
    }
    setBusy(true)
    try {
      await postRejection(order.orderId, reason.trim())
      onDecided({ tone: 'ok', text: `Rejected the mint of ${what}; its bars are free again.` })
    } catch (error) {
      onDecided({ tone: 'error', text: `Could not reject the mint of ${what}: ${approvalRefusalMessage(error)}` })
    } finally {
      setBusy(false)
      setConfirming(null)
    }
  }

  if (mine) {
    return (
      <CardFooter>
        <p className="text-sm text-stone-600">You requested this: a second person must approve or reject it.</p>
      </CardFooter>
    )
  }

  return (
    <>
      <CardContent className="pt-0">
        {approval.data && intent ? (
          <ApprovalIntent approval={approval.data} intent={intent} />
        ) : approval.isError ? (
          <Alert tone="error">{`The intent to sign could not be loaded: ${approvalRefusalMessage(approval.error)}`}</Alert>
        ) : (
          <p className="text-sm text-stone-500">Loading the intent to sign…</p>
        )}
      </CardContent>
      <CardFooter className="flex-wrap">
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
            aria-label={`Sign with the dev key: the mint of ${what}`}
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
      </CardFooter>

      <ConfirmDialog
        open={approving !== null}
        title={`Sign and approve the mint of ${order.amount} oz?`}
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
          {order.amount} fine oz will be minted to <span className="break-all font-mono text-xs">{order.to}</span>,
          backed by {order.barCount} bar{order.barCount === 1 ? '' : 's'} of {order.vault}, as {order.requestedBy}{' '}
          requested.
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
        title={`Reject the mint of ${order.amount} oz?`}
        confirmLabel="Reject mint"
        dismissLabel="Keep it"
        busy={busy}
        onDismiss={() => {
          setConfirming(null)
          setReasonError(null)
        }}
        onConfirm={() => void reject()}
      >
        <p>Nothing is minted; its bars are free again. {order.requestedBy} reads your reason on the order.</p>
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
    </>
  )
}
