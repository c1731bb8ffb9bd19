'use client'

import { useInfiniteQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { useId, useMemo, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { TableHead } from '@/components/ui/Table'
import { type ApiMintOrderList, type ApiMintOrderSummary, type MintStatus, mintStatuses } from '@/lib/web/mint/apiTypes'
import { shortHex } from './format'
import { hasInFlight, LIVE_POLL_MS } from './hasInFlight'
import { LiveIndicator } from './LiveIndicator'
import { fetchMintOrders } from './mintApi'
import { StatusBadge } from './StatusBadge'
import { statusLabel } from './statusLabel'

export type MintOrderListProps = {
  /** the first page, unfiltered, rendered by the server */
  initialPage: ApiMintOrderList
  /** admins see every order: show who requested it */
  showRequester: boolean
}

/**
 * The orders table: newest first, filter by status, "Load more" with the API's cursor.
 * While any shown order is pending or submitted it refetches every 2 s (all loaded
 * pages), and stops as soon as none is in flight.
 */
export function MintOrderList({ initialPage, showRequester }: MintOrderListProps) {
  const [status, setStatus] = useState<MintStatus | ''>('')
  const filterId = useId()

  const query = useInfiniteQuery({
    queryKey: ['mint-orders', { status }],
    queryFn: ({ pageParam, signal }) => fetchMintOrders({ status: status || undefined, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: status === '' ? { pages: [initialPage], pageParams: [null] } : undefined,
    refetchInterval: (q) => (hasInFlight(q.state.data?.pages.flatMap((p) => p.items) ?? []) ? LIVE_POLL_MS : false),
  })

  const items = useMemo(() => {
    const seen = new Set<string>()
    const out: ApiMintOrderSummary[] = []
    for (const page of query.data?.pages ?? []) {
      for (const item of page.items) {
        if (!seen.has(item.orderId)) {
          seen.add(item.orderId)
          out.push(item)
        }
      }
    }
    return out
  }, [query.data])
  const live = hasInFlight(items)

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <label htmlFor={filterId} className="mb-1 block text-sm font-medium text-stone-700">
            Status
          </label>
          <select
            id={filterId}
            value={status}
            onChange={
              (e) => setStatus(e.target.value as MintStatus | '') /* the options are exactly '' and mintStatuses */
            }
            className="h-9 rounded-md border border-stone-300 bg-white px-3 text-sm text-stone-900"
          >
            <option value="">All statuses</option>
            {mintStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <LiveIndicator live={live} fetching={query.isFetching} />
      </div>

      {query.isError ? (
        <Alert tone="error" title="The orders could not be loaded.">
          {query.error instanceof Error ? query.error.message : null}
        </Alert>
      ) : null}

      <Card>
        <ScrollX label="Mint orders">
          <table className="w-full text-sm">
            <caption className="sr-only">Mint orders, newest first</caption>
            <TableHead>
              <th scope="col" className="px-4 py-2">
                Order
              </th>
              <th scope="col" className="px-4 py-2">
                Created
              </th>
              <th scope="col" className="px-4 py-2">
                Recipient
              </th>
              <th scope="col" className="px-4 py-2 text-right">
                Amount (oz)
              </th>
              <th scope="col" className="px-4 py-2">
                Status
              </th>
              <th scope="col" className="px-4 py-2">
                Transaction
              </th>
              {showRequester ? (
                <th scope="col" className="px-4 py-2">
                  Requested by
                </th>
              ) : null}
            </TableHead>
            <tbody>
              {items.map((order) => (
                <tr key={order.orderId} className="border-t border-stone-100 hover:bg-stone-50">
                  <td className="px-4 py-2.5">
                    <Link
                      href={`/mints/${order.orderId}`}
                      className="font-mono text-xs text-brand-700 underline-offset-2 hover:underline"
                      aria-label={`Order ${order.orderId.slice(0, 8)}: details`}
                    >
                      {order.orderId.slice(0, 8)}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap px-4 py-2.5 text-stone-600">
                    <time dateTime={order.createdAt}>{formatUtc(order.createdAt)}</time>
                  </td>
                  <td className="px-4 py-2.5 font-mono text-xs" title={order.to}>
                    {shortHex(order.to)}
                  </td>
                  <td className="tabular px-4 py-2.5 text-right font-medium">{order.amount}</td>
                  <td className="px-4 py-2.5">
                    <StatusBadge status={order.status} />
                  </td>
                  <td className="px-4 py-2.5 font-mono text-xs">
                    {order.txHash ? (
                      <Link
                        href={`/mints/${order.orderId}`}
                        title={order.txHash}
                        className="text-brand-700 underline-offset-2 hover:underline"
                      >
                        {shortHex(order.txHash, 10, 6)}
                      </Link>
                    ) : (
                      <span className="text-stone-400">—</span>
                    )}
                  </td>
                  {showRequester ? <td className="px-4 py-2.5 text-stone-600">{order.requestedBy}</td> : null}
                </tr>
              ))}
              {items.length === 0 && !query.isPending ? (
                <tr>
                  <td colSpan={showRequester ? 7 : 6} className="px-4 py-10 text-center text-stone-500">
                    {status === '' ? (
                      <>
                        No mints yet.{' '}
                        <Link href="/mints/new" className="text-brand-700 underline">
                          Request one
                        </Link>
                        .
                      </>
                    ) : (
                      `No ${statusLabel(status).toLowerCase()} mints.`
                    )}
                  </td>
                </tr>
              ) : null}
              {query.isPending ? (
                <tr>
                  <td colSpan={showRequester ? 7 : 6} className="px-4 py-10 text-center text-stone-500">
                    Loading…
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </ScrollX>
      </Card>

      {query.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </div>
  )
}
