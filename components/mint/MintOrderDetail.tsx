'use client'

import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { TableHead } from '@/components/ui/Table'
import { BarCells, BarColumnHeaders } from '@/components/vault/BarCells'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { isInFlight } from './hasInFlight'
import { LiveIndicator } from './LiveIndicator'
import { fetchMintOrder, mintOrderQueryKey } from './mintApi'
import { newerOrder } from './newerOrder'
import { OrderActions, type OrderViewer } from './OrderActions'
import { OrderDecision } from './OrderDecision'
import { OrderOutcome } from './OrderOutcome'
import { StatusBadge } from './StatusBadge'
import { useOrderStream } from './useOrderStream'

/** Without its live stream, an order in flight is read again this often. */
const FALLBACK_POLL_MS = 1_000
/** With its live stream open, an order in flight is still read again this often, in case a notification was lost. */
const STREAM_CHECK_MS = 10_000
/** Without its live stream, an order awaiting a second person is read again this often. */
const AWAITING_POLL_MS = 10_000

/**
 * One order: status, its outcome when it ended without a mint (first, with the reason) or else
 * the approval decision (four eyes), what the viewer may do to it (approve or reject, retry or
 * cancel: OrderActions), amount, recipient, its vault proof, its transaction and its timeline.
 * Follows the order live through its event stream (useOrderStream): each step shows as it
 * happens, and an order in flight is still read every 10 s. Without the stream it polls: every second while
 * pending or submitted, every 10 s while it awaits approval. A snapshot older than the one shown is dropped
 * (newerOrder).
 */
export function MintOrderDetail({ initialOrder, viewer }: { initialOrder: ApiMintOrder; viewer?: OrderViewer }) {
  const stream = useOrderStream(initialOrder.orderId)
  const query = useQuery({
    queryKey: mintOrderQueryKey(initialOrder.orderId),
    queryFn: ({ signal }) => fetchMintOrder(initialOrder.orderId, { signal }),
    initialData: initialOrder,
    // a snapshot older than the one shown (a refetch answering after the stream's newer one) is not shown
    structuralSharing: newerOrder,
    refetchInterval: (q) => {
      const status = q.state.data?.status
      if (stream === 'open') return status && isInFlight(status) ? STREAM_CHECK_MS : false
      if (status && isInFlight(status)) return FALLBACK_POLL_MS
      return status === 'awaiting_approval' ? AWAITING_POLL_MS : false
    },
  })
  const order = query.data
  const barsTotal = order.vaultProof.bars.reduce((sum, bar) => sum + parseDecimal(bar.fineOz, { decimals: 3 }), 0n)

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex items-center gap-3">
            <h1>Mint order</h1>
            <StatusBadge status={order.status} />
          </div>
          <p className="mt-1 font-mono text-xs text-stone-500">{order.orderId}</p>
        </div>
        <LiveIndicator
          live={isInFlight(order.status)}
          fetching={query.isFetching}
          pollMs={FALLBACK_POLL_MS}
          stream={stream}
        />
      </div>

      {/* a failed, rejected or cancelled order says so first; the others say where its decision stands */}
      {order.outcome ? <OrderOutcome order={order} /> : <OrderDecision order={order} />}
      {viewer ? <OrderActions order={order} viewer={viewer} onChanged={() => void query.refetch()} /> : null}

      <Card>
        <CardContent>
          <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2 lg:grid-cols-4">
            <Item label="Amount">
              <span className="tabular text-lg font-semibold">{order.amount}</span>{' '}
              <span className="text-stone-500">fine oz</span>
            </Item>
            <Item label="Recipient" wide>
              <span className="break-all font-mono text-xs">{order.to}</span>
            </Item>
            <Item label="Requested by">{order.requestedBy}</Item>
            <Item label="Created">
              <time dateTime={order.createdAt}>{formatUtc(order.createdAt)}</time>
            </Item>
          </dl>
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Vault proof</CardTitle>
            <CardDescription>As submitted with the request.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <dl className="grid gap-4 sm:grid-cols-2">
              <Item label="Vault">{order.vaultProof.vault}</Item>
              <Item label="Receipt reference">{order.vaultProof.receiptRef}</Item>
              <Item label="Receipt document SHA-256" wide>
                <span className="break-all font-mono text-xs">{order.vaultProof.documentSha256}</span>
              </Item>
            </dl>
            <ScrollX label="Bars backing this order" className="rounded-md border border-stone-200">
              <table className="w-full text-sm">
                <caption className="sr-only">Bars backing this order</caption>
                <TableHead>
                  <th scope="col" className="px-3 py-2 text-right">
                    #
                  </th>
                  <BarColumnHeaders pad="px-3 py-2" />
                </TableHead>
                <tbody>
                  {order.vaultProof.bars.map((bar, i) => (
                    <tr key={`${bar.serial}|${bar.refiner}`} className="border-t border-stone-100">
                      <th scope="row" className="px-3 py-2 text-right text-xs font-medium text-stone-500">
                        {i + 1}
                      </th>
                      <BarCells bar={bar} pad="px-3 py-2" serialAs="cell" />
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr className="border-t border-stone-200 bg-stone-50 font-medium">
                    <th
                      scope="row"
                      colSpan={6}
                      className="px-3 py-2 text-right text-xs uppercase tracking-wide text-stone-500"
                    >
                      Total fine weight
                    </th>
                    <td className="tabular px-3 py-2 text-right">
                      {formatDecimal(barsTotal, { decimals: 3, minFraction: 3 })}
                    </td>
                  </tr>
                </tfoot>
              </table>
            </ScrollX>
          </CardContent>
        </Card>

        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Transaction</CardTitle>
            </CardHeader>
            <CardContent>
              {order.tx ? (
                <dl className="grid grid-cols-2 gap-4">
                  <Item label="Hash" wide>
                    {order.tx.hash ? (
                      <span className="break-all font-mono text-xs">{order.tx.hash}</span>
                    ) : (
                      <span className="text-stone-500">Not signed yet</span>
                    )}
                  </Item>
                  <Item label="Nonce">{order.tx.nonce ?? '—'}</Item>
                  <Item label="Block">{order.tx.blockNumber ?? '—'}</Item>
                  <Item label="Confirmations">{order.tx.confirmations ?? '—'}</Item>
                </dl>
              ) : (
                <p className="text-sm text-stone-500">
                  {order.status === 'pending'
                    ? 'Waiting for the worker to sign and send it.'
                    : order.status === 'awaiting_approval'
                      ? 'Nothing is signed until a second person approves it.'
                      : 'No transaction.'}
                </p>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Timeline</CardTitle>
            </CardHeader>
            <CardContent>
              {order.timeline.length === 0 ? (
                <p className="text-sm text-stone-500">No events yet.</p>
              ) : (
                <ol className="relative space-y-4 border-l border-stone-200 pl-5" aria-label="Timeline">
                  {order.timeline.map((entry, i) => (
                    /* biome-ignore lint/suspicious/noArrayIndexKey: two events may share a time; the list
                       only grows at its end */
                    <li key={`${entry.at}-${i}`} className="relative">
                      <span
                        aria-hidden="true"
                        className="absolute -left-[1.6rem] top-1.5 size-2.5 rounded-full border-2 border-white bg-brand-500"
                      />
                      <p className="text-sm font-medium text-stone-900">{eventLabel(entry.event)}</p>
                      <p className="text-xs text-stone-500">
                        <time dateTime={entry.at}>{formatUtc(entry.at)}</time>
                      </p>
                      {entry.detail ? (
                        <p className="mt-0.5 break-words text-sm text-stone-700">{entry.detail}</p>
                      ) : null}
                    </li>
                  ))}
                </ol>
              )}
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  )
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'col-span-full sm:col-span-2' : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-1 text-sm text-stone-900">{children}</dd>
    </div>
  )
}

/** 'not_mined_yet' -> 'Not mined yet' */
function eventLabel(event: string): string {
  const words = event.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
