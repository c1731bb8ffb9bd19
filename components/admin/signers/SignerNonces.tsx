'use client'

import Link from 'next/link'
import { type ReactNode, useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ControlField } from '@/components/admin/controls/ControlField'
import { formatGweiOf, shortHex } from '@/components/admin/format'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import type { ApiPendingNonce, ApiSigner } from '@/lib/web/admin/apiTypes'
import { ApiError } from '@/lib/web/errors/api'
import type { KeySignerKind } from '@/lib/web/signing/availableSigners'
import { type SpeedUpFeesInput, speedUpBody, suggestSpeedUpFees } from './speedUpFees'
import { useSignerActions } from './useSignerActions'

export type SignerNoncesProps = {
  signer: Pick<ApiSigner, 'address' | 'pendingNonces'>
  /** who signs a nonce's cancel on this page: the injected wallet, and in dev mode also the dev signer */
  keySigners: readonly KeySignerKind[]
}

type Message = { tone: 'success' | 'error'; text: string; link?: boolean }

/** The mint at a nonce may be cancelled while its order is pending or submitted (the server judges it again). */
const cancellable = (n: ApiPendingNonce) =>
  n.operation === 'mint' && (n.operationStatus === 'pending' || n.operationStatus === 'submitted')

/**
 * One signer's pending nonces, lowest first, each with what holds it and its newest transaction's fees; for an
 * admin, beside each: speed up (new fees, one admin), cancel (a nonce.cancel change signed with the admin's key,
 * confirmed by a second admin on /admin/changes), and one resync of the signer. An auditor sees the list only.
 */
export function SignerNonces({ signer, keySigners }: SignerNoncesProps) {
  const canChange = useCanChange()
  const actions = useSignerActions()
  const [speedUpAt, setSpeedUpAt] = useState<number | null>(null)
  const [fees, setFees] = useState<SpeedUpFeesInput>({ maxFeePerGas: '', maxPriorityFeePerGas: '' })
  const [issues, setIssues] = useState<Partial<SpeedUpFeesInput>>({})
  const [message, setMessage] = useState<Message | null>(null)
  const busy = actions.speedUp.isPending || actions.cancel.isPending || actions.resync.isPending
  const short = shortHex(signer.address, 6)
  const fail = (error: Error) => setMessage({ tone: 'error', text: error.message })

  const openSpeedUp = (n: ApiPendingNonce) => {
    setMessage(null)
    setIssues({})
    setSpeedUpAt(n.nonce)
    setFees(
      n.maxFeePerGas !== null && n.maxPriorityFeePerGas !== null
        ? suggestSpeedUpFees({ maxFeePerGas: n.maxFeePerGas, maxPriorityFeePerGas: n.maxPriorityFeePerGas })
        : { maxFeePerGas: '', maxPriorityFeePerGas: '' },
    )
  }
  const sendSpeedUp = (nonce: number) => {
    const read = speedUpBody(fees)
    if (!read.ok) {
      setIssues(read.issues)
      return
    }
    setIssues({})
    actions.speedUp.mutate(
      { signerAddress: signer.address, nonce, body: read.body },
      {
        onSuccess: () => {
          setSpeedUpAt(null)
          setMessage({
            tone: 'success',
            text: `Speed-up of nonce ${nonce} queued at ${formatGweiOf(read.body.maxFeePerGas)} max, ${formatGweiOf(read.body.maxPriorityFeePerGas)} tip: the worker re-signs it.`,
          })
        },
        onError: (error) => {
          const fields: Partial<SpeedUpFeesInput> = {}
          if (error instanceof ApiError)
            for (const i of error.issues)
              if (i.path === 'maxFeePerGas' || i.path === 'maxPriorityFeePerGas') fields[i.path] = i.message
          setIssues(fields)
          fail(error)
        },
      },
    )
  }
  const proposeCancel = (nonce: number, kind: KeySignerKind) => {
    setMessage(null)
    actions.cancel.mutate(
      { signerAddress: signer.address, nonce, signer: kind },
      {
        onSuccess: () =>
          setMessage({
            tone: 'success',
            text: `Cancel of nonce ${nonce} signed and proposed: a second admin confirms it on the Changes page.`,
            link: true,
          }),
        onError: fail,
      },
    )
  }
  const resync = () => {
    setMessage(null)
    actions.resync.mutate(signer.address, {
      onSuccess: (done) =>
        setMessage({
          tone: 'success',
          text: `Resync of ${short} queued (job ${done.jobId}): the worker checks its nonces against the chain.`,
        }),
      onError: fail,
    })
  }

  return (
    <section className="space-y-2" aria-label={`Pending nonces of ${short}`}>
      {message ? (
        <Alert tone={message.tone} title={message.text}>
          {message.link ? <Link href="/admin/changes">Open Changes</Link> : null}
        </Alert>
      ) : null}
      {signer.pendingNonces.length === 0 ? (
        <p className="text-xs text-stone-500">No nonce pending.</p>
      ) : (
        <table className="w-full text-xs">
          <caption className="sr-only">Pending nonces of {short}</caption>
          <thead>
            <tr className="text-left text-stone-500">
              <th scope="col" className="py-1 pr-2 font-medium">
                Nonce
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                Holds
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                Transaction
              </th>
              <th scope="col" className="px-2 py-1 text-right font-medium">
                Max fee / tip
              </th>
              {canChange ? (
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {signer.pendingNonces.map((n) => (
              <NonceRow
                key={n.nonce}
                n={n}
                canChange={canChange}
                busy={busy}
                keySigners={keySigners}
                onSpeedUp={() => openSpeedUp(n)}
                onCancel={(kind) => proposeCancel(n.nonce, kind)}
                speedUpForm={
                  speedUpAt === n.nonce ? (
                    <form
                      className="flex flex-wrap items-end gap-2 py-2"
                      aria-label={`Speed up nonce ${n.nonce}`}
                      onSubmit={(e) => {
                        e.preventDefault()
                        sendSpeedUp(n.nonce)
                      }}
                    >
                      <ControlField
                        id={`speedup-${signer.address}-${n.nonce}-max`}
                        label="Max fee (gwei)"
                        inputMode="decimal"
                        value={fees.maxFeePerGas}
                        onChange={(v) => setFees((f) => ({ ...f, maxFeePerGas: v }))}
                        issue={issues.maxFeePerGas}
                      />
                      <ControlField
                        id={`speedup-${signer.address}-${n.nonce}-tip`}
                        label="Priority fee (gwei)"
                        inputMode="decimal"
                        value={fees.maxPriorityFeePerGas}
                        onChange={(v) => setFees((f) => ({ ...f, maxPriorityFeePerGas: v }))}
                        issue={issues.maxPriorityFeePerGas}
                      />
                      <Button type="submit" size="sm" disabled={busy}>
                        Send speed-up
                      </Button>
                      <Button variant="ghost" size="sm" disabled={busy} onClick={() => setSpeedUpAt(null)}>
                        Close
                      </Button>
                    </form>
                  ) : null
                }
              />
            ))}
          </tbody>
        </table>
      )}
      {canChange ? (
        <Button variant="secondary" size="sm" disabled={busy} onClick={resync}>
          Resync nonces of {short}
        </Button>
      ) : null}
    </section>
  )
}

function NonceRow({
  n,
  canChange,
  busy,
  keySigners,
  onSpeedUp,
  onCancel,
  speedUpForm,
}: {
  n: ApiPendingNonce
  canChange: boolean
  busy: boolean
  keySigners: readonly KeySignerKind[]
  onSpeedUp: () => void
  onCancel: (kind: KeySignerKind) => void
  speedUpForm: ReactNode
}) {
  return (
    <>
      <tr className="border-t border-stone-100">
        <th scope="row" className="tabular py-1 pr-2 text-left font-normal">
          {n.nonce}
        </th>
        <td className="px-2 py-1">
          {n.operation ?? 'gap fill'}
          {n.operationStatus ? <span className="text-stone-500"> · {n.operationStatus}</span> : null}{' '}
          <Badge>{n.state}</Badge>
        </td>
        <td className="px-2 py-1 font-mono" title={n.hash ?? undefined}>
          {n.hash ? shortHex(n.hash) : 'not signed'}
        </td>
        <td className="tabular px-2 py-1 text-right">
          {n.maxFeePerGas && n.maxPriorityFeePerGas
            ? `${formatGweiOf(n.maxFeePerGas)} / ${formatGweiOf(n.maxPriorityFeePerGas)}`
            : '—'}
        </td>
        {canChange ? (
          <td className="px-2 py-1">
            <div className="flex flex-wrap justify-end gap-1">
              {n.hash ? (
                <Button size="sm" variant="secondary" disabled={busy} onClick={onSpeedUp}>
                  Speed up nonce {n.nonce}
                </Button>
              ) : null}
              {cancellable(n)
                ? keySigners.map((kind) => (
                    <Button key={kind} size="sm" variant="danger" disabled={busy} onClick={() => onCancel(kind)}>
                      {kind === 'wallet' ? `Cancel nonce ${n.nonce}` : `Cancel nonce ${n.nonce} with the dev key`}
                    </Button>
                  ))
                : null}
            </div>
          </td>
        ) : null}
      </tr>
      {speedUpForm ? (
        <tr>
          <td colSpan={canChange ? 5 : 4}>{speedUpForm}</td>
        </tr>
      ) : null}
    </>
  )
}
