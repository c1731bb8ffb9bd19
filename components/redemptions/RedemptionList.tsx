'use client'

import { useInfiniteQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { useId, useMemo, useState } from 'react'
import { shortHex } from '@/components/mint/format'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiRedemptionSummary } from '@/lib/web/redemptions/apiTypes'
import { RedemptionStatusBadge } from './RedemptionStatusBadge'
import {
  isRedemptionInFlight,
  REDEMPTION_LIVE_POLL_MS,
  REDEMPTION_STATUS_WORDS,
  redemptionStatuses,
} from './redemptionStatusWords'
import {
  type ApiRedemptionList,
  fetchRedemptions,
  type RedemptionStatus,
  redemptionListQueryKey,
} from './redemptionsApi'

export type RedemptionListProps = {
  /** the first page, unfiltered, rendered by the server */
  initialPage: ApiRedemptionList
  /** approvers, admins and auditors see every redemption: show who requested it */
  showRequester: boolean
}

/**
 * The redemptions table: newest first, filter by status, "Load more" with the API's cursor. While one shown is
 * pending or submitted it reads every page again each second, and stops once none is in flight.
 */
export function RedemptionList({ initialPage, showRequester }: RedemptionListProps) {
  const [status, setStatus] = useState<RedemptionStatus | ''>('')
  const filterId = useId()
  const query = useInfiniteQuery({
    queryKey: redemptionListQueryKey(status),
    queryFn: ({ pageParam, signal }) => fetchRedemptions({ status: status || undefined, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: status === '' ? { pages: [initialPage], pageParams: [null] } : undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((r) => isRedemptionInFlight(r.status)))
        ? REDEMPTION_LIVE_POLL_MS
        : false,
  })
  const items = useMemo(() => {
    const seen = new Set<string>()
    const out: ApiRedemptionSummary[] = []
    for (const item of query.data?.pages.flatMap((p) => p.items) ?? []) {
      if (seen.has(item.redemptionId)) continue
      seen.add(item.redemptionId)
      out.push(item)
    }
    return out
  }, [query.data])
  const columns = ['Redemption', 'Created', 'Holder', 'Amount (oz)', 'Bars', 'Status', 'Burn', 'Reference']
  if (showRequester) columns.push('Requested by')

  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={filterId} className="mb-1 block text-sm font-medium text-stone-700">
          Status
        </label>
        <select
          id={filterId}
          value={status}
          onChange={
            (e) => setStatus(e.target.value as RedemptionStatus | '') /* the options are '' and redemptionStatuses */
          }
          className="h-9 rounded-md border border-stone-300 bg-white px-3 text-sm text-stone-900"
        >
          <option value="">All statuses</option>
          {redemptionStatuses.map((s) => (
            <option key={s} value={s}>
              {REDEMPTION_STATUS_WORDS[s].label}
            </option>
          ))}
        </select>
      </div>
      {query.isError ? (
        <Alert tone="error" title="The redemptions could not be loaded.">
          {query.error.message}
        </Alert>
      ) : null}
      <Card>
        <ScrollX label="Redemptions">
          <table className="w-full text-sm" aria-label="Redemptions">
            <TableHead>
              {columns.map((c) => (
                <ColumnHeader key={c} className="px-3 py-2" right={c === 'Amount (oz)' || c === 'Bars'}>
                  {c}
                </ColumnHeader>
              ))}
            </TableHead>
            <tbody>
              {items.map((r) => (
                <tr key={r.redemptionId} className="border-t border-stone-100 hover:bg-stone-50">
                  <td className="px-3 py-2">
                    <Link
                      href={`/redemptions/${r.redemptionId}`}
                      className="font-mono text-xs text-brand-700 underline-offset-2 hover:underline"
                      aria-label={`Redemption ${r.redemptionId.slice(0, 8)}: details`}
                    >
                      {r.redemptionId.slice(0, 8)}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-stone-600">
                    <time dateTime={r.createdAt}>{formatUtc(r.createdAt)}</time>
                  </td>
                  <td className="px-3 py-2 font-mono text-xs" title={r.holder}>
                    {shortHex(r.holder)}
                  </td>
                  <td className="tabular px-3 py-2 text-right font-medium">{r.amount}</td>
                  <td className="tabular px-3 py-2 text-right">{r.bars}</td>
                  <td className="px-3 py-2">
                    <RedemptionStatusBadge status={r.status} />
                  </td>
                  <td className="px-3 py-2 font-mono text-xs" title={r.txHash ?? undefined}>
                    {r.txHash ? shortHex(r.txHash, 10, 6) : <span className="text-stone-400">—</span>}
                  </td>
                  <td className="max-w-48 truncate px-3 py-2" title={r.reference}>
                    {r.reference}
                  </td>
                  {showRequester ? <td className="px-3 py-2 text-stone-600">{r.requestedBy}</td> : null}
                </tr>
              ))}
              {items.length === 0 ? (
                <EmptyRow
                  colSpan={columns.length}
                  text={
                    query.isPending
                      ? 'Loading…'
                      : status === ''
                        ? 'No redemption yet.'
                        : `No ${REDEMPTION_STATUS_WORDS[status].label.toLowerCase()} redemption.`
                  }
                />
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
