'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { fetchSigningKeys, signingKeysQueryKey } from '@/components/signing-key/signingKeyApi'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'
import { type KeySignerKind, keySigner } from '@/components/wallet/keySigners'
import { MAX_REJECTION_REASON } from '@/lib/web/approvals/rejectMintOrderSchema'
import type { ApiRedemption } from '@/lib/web/redemptions/apiTypes'
import { describeRedemptionIntent } from './describeRedemptionIntent'
import { RedemptionIntentSummary } from './RedemptionIntentSummary'
import { redemptionRefusalMessage } from './redemptionRefusalMessage'
import {
  fetchRedemptionApproval,
  postRedemptionApproval,
  postRedemptionRejection,
  redemptionApprovalQueryKey,
} from './redemptionsApi'

export type DecisionOutcome = { tone: 'ok' | 'error'; text: string }

export type RedemptionDecisionProps = {
  redemption: Pick<ApiRedemption, 'redemptionId' | 'amount' | 'holder' | 'requestedBy'>
  /** the viewer requested it: shown, but another person decides (four eyes) */
  mine: boolean
  viewerEmail: string
  /** the injected wallet, and in dev mode the dev signer too */
  signers: readonly KeySignerKind[]
  /** the redemption address as the reserves give it: the intent must burn from there */
  redemptionAddress: string | null
  /** a decision was made (or refused): the page announces it and reads the redemption again */
  onDecided: (outcome: DecisionOutcome) => void
}

/**
 * The decision on a redemption awaiting approval, for an approver or admin: the RedemptionIntent to sign (GET
 * .../approval) with the signatures so far, "Sign and approve" behind a confirmation (the viewer's wallet, or the
 * dev signer in dev mode, signs the typed data exactly as given; POST .../approve carries the signature), and
 * Reject with a reason. The viewer's own request is not theirs to decide.
 */
export function RedemptionDecision({
  redemption,
  mine,
  viewerEmail,
  signers,
  redemptionAddress,
  onDecided,
}: RedemptionDecisionProps) {
  const [confirming, setConfirming] = useState<KeySignerKind | 'reject' | null>(null)
  const [busy, setBusy] = useState(false)
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | null>(null)
  const reasonId = useId()
  const queryClient = useQueryClient()
  const { redemptionId, amount } = redemption
  const approval = useQuery({
    queryKey: redemptionApprovalQueryKey(redemptionId),
    queryFn: () => fetchRedemptionApproval(redemptionId),
    enabled: !mine,
  })
  // the wallet's account is checked against these before it is asked to sign (the server checks again)
  const keys = useQuery({ queryKey: signingKeysQueryKey, queryFn: fetchSigningKeys, enabled: !mine })
  const intent = approval.data
    ? describeRedemptionIntent({ approval: approval.data, amount, redemptionAddress, now: new Date() })
    : null
  const signedByViewer = approval.data?.signatures.some((s) => s.user === viewerEmail) ?? false
  const canSign = intent !== null && intent.mismatches.length === 0 && !intent.expired && !signedByViewer
  const approving = confirming === 'reject' ? null : confirming
  const what = `the burn of ${amount} oz`

  const approve = async (kind: KeySignerKind) => {
    if (!approval.data) return
    setBusy(true)
    try {
      const { signature } = await keySigner(kind).signTypedData({
        typedData: approval.data.typedData,
        bound: kind === 'wallet' ? keys.data?.keys.map((k) => k.address) : undefined,
      })
      const after = await postRedemptionApproval(redemptionId, signature)
      onDecided({
        tone: 'ok',
        text:
          after.status === 'awaiting_approval'
            ? `Signed ${what}: it waits for another approver.`
            : `Approved ${what}: the worker sends it to the chain.`,
      })
    } catch (error) {
      onDecided({ tone: 'error', text: `Could not approve ${what}: ${redemptionRefusalMessage(error)}` })
    } finally {
      setBusy(false)
      setConfirming(null)
      void queryClient.invalidateQueries({ queryKey: redemptionApprovalQueryKey(redemptionId) })
    }
  }

  const reject = async () => {
    if (reason.trim() === '') {
      setReasonError('Say why the redemption is rejected: the requester reads it.')
      return
    }
    setBusy(true)
    try {
      await postRedemptionRejection(redemptionId, reason.trim())
      onDecided({ tone: 'ok', text: `Rejected ${what}; its deposit and bars are free again.` })
    } catch (error) {
      onDecided({ tone: 'error', text: `Could not reject ${what}: ${redemptionRefusalMessage(error)}` })
    } finally {
      setBusy(false)
      setConfirming(null)
    }
  }

  return (
    <Card aria-labelledby="decide-heading">
      <CardHeader>
        <CardTitle id="decide-heading">Your decision</CardTitle>
      </CardHeader>
      {mine ? (
        <CardContent>
          <p className="text-sm text-stone-600">You requested this: another person must sign or reject it.</p>
        </CardContent>
      ) : (
        <>
          <CardContent>
            {approval.data && intent ? (
              <RedemptionIntentSummary approval={approval.data} intent={intent} />
            ) : approval.isError ? (
              <Alert tone="error">{`The intent to sign could not be loaded: ${redemptionRefusalMessage(approval.error)}`}</Alert>
            ) : (
              <p className="text-sm text-stone-500">Loading the intent to sign…</p>
            )}
          </CardContent>
          <CardFooter className="flex-wrap">
            {signedByViewer ? (
              <p className="text-sm text-stone-600">You signed this: it waits for another approver.</p>
            ) : null}
            {signers.map((kind) => (
              <Button
                key={kind}
                variant={kind === 'wallet' ? 'primary' : 'secondary'}
                onClick={() => setConfirming(kind)}
                disabled={busy || !canSign}
              >
                {kind === 'wallet' ? 'Sign and approve' : 'Sign with the dev key'}
              </Button>
            ))}
            <Button variant="secondary" onClick={() => setConfirming('reject')} disabled={busy}>
              Reject
            </Button>
          </CardFooter>
        </>
      )}

      <ConfirmDialog
        open={approving !== null}
        title={`Sign and approve ${what}?`}
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
          {amount} tokens deposited by <span className="break-all font-mono text-xs">{redemption.holder}</span> are
          burned from the redemption address, and its bars leave the reserve, as {redemption.requestedBy} requested.
        </p>
        <p>
          {approving === 'dev'
            ? 'The dev signer signs this intent with your dev key (dev mode only).'
            : 'Your wallet shows the same intent: check the amount and the contract there before you sign.'}{' '}
          Once enough approvers have signed, the worker checks every signature again, then sends the burn.
        </p>
      </ConfirmDialog>

      <ConfirmDialog
        open={confirming === 'reject'}
        title={`Reject ${what}?`}
        confirmLabel="Reject redemption"
        busy={busy}
        onDismiss={() => {
          setConfirming(null)
          setReasonError(null)
        }}
        onConfirm={() => void reject()}
      >
        <p>Nothing is burned; the deposit and its bars are free again. {redemption.requestedBy} reads your reason.</p>
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
