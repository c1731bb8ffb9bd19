'use client'

import Link from 'next/link'
import { type ReactNode, useId } from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { TableHead } from '@/components/ui/Table'
import { BarCells, type BarColumn, BarColumnHeaders } from '@/components/vault/BarCells'
import type { KeySignerKind } from '@/components/wallet/keySigners'
import type { OrderAwaitingApproval } from '@/lib/web/approvals/OrdersAwaitingApproval'
import { ApprovalActions, type DecisionOutcome } from './ApprovalActions'

/** What an approver checks a bar by: which one, and the fine weight it backs. */
const approvalBarColumns: readonly BarColumn[] = ['serial', 'refiner', 'fineOz']

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
 * requested by whom and when, then the approval's signing (ApprovalActions: the intent,
 * "Sign and approve" and reject, the same as on the order's page). The viewer's own
 * request is shown but cannot be decided on by them ("you requested this").
 */
export function ApprovalCard({ item, viewerEmail, signers, onDecided }: ApprovalCardProps) {
  const titleId = useId()
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
        <ScrollX label="Bars backing this order" className="rounded-md border border-stone-200">
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
        </ScrollX>
      </CardContent>
      <ApprovalActions
        order={{ ...item, barCount: item.bars.length }}
        mine={item.mine}
        viewerEmail={viewerEmail}
        signers={signers}
        onDecided={onDecided}
      />
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
