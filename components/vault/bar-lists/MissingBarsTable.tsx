'use client'

import { useInfiniteQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import { BarCells, type BarColumn, BarColumnHeaders } from '../BarCells'
import { fetchVaultBars } from '../vaultApi'
import { missingBarsQueryKey } from './queryKeys'

/** A bar's identity: its serial and refiner. */
const identity: readonly BarColumn[] = ['serial', 'refiner']

/**
 * The bars that are missing (GET /api/vault/bars?status=missing): held by an order, but
 * absent from their vault's latest list. Each names its order (the order's page, and its
 * jobs in the admin console): tokens that the vault no longer shows gold for.
 */
export function MissingBarsTable() {
  const query = useInfiniteQuery({
    queryKey: missingBarsQueryKey,
    queryFn: ({ pageParam, signal }) =>
      fetchVaultBars({ status: 'missing', cursor: pageParam, limit: 100 }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: 30_000,
  })
  const bars = query.data?.pages.flatMap((p) => p.items) ?? []
  return (
    <Card>
      <CardHeader>
        <CardTitle id="missing-bars-title">Missing bars</CardTitle>
        <CardDescription>
          Held by an order but not on their vault&apos;s latest list. A later list that has them again brings them back.
        </CardDescription>
      </CardHeader>
      {query.error ? (
        <CardContent>
          <Alert tone="error" title={`The missing bars could not be loaded: ${query.error.message}`} />
        </CardContent>
      ) : null}
      <CardContent className="p-0">
        <ScrollX label="Missing bars">
          <table className="w-full min-w-[48rem] text-sm" aria-labelledby="missing-bars-title">
            <TableHead>
              <BarColumnHeaders columns={identity} pad="px-3 py-2" />
              <ColumnHeader className="px-3 py-2">Vault</ColumnHeader>
              <ColumnHeader className="px-3 py-2" right>
                Fine oz
              </ColumnHeader>
              <ColumnHeader className="px-3 py-2">Since</ColumnHeader>
              <ColumnHeader className="px-3 py-2">Order</ColumnHeader>
            </TableHead>
            <tbody>
              {bars.map((bar) => (
                <tr key={bar.id} className="border-t border-stone-100">
                  <BarCells bar={bar} columns={identity} pad="px-3 py-2" />
                  <td className="px-3 py-2">{bar.vault}</td>
                  <td className="tabular px-3 py-2 text-right">{bar.fineOz}</td>
                  <td className="px-3 py-2 text-xs text-stone-600">{formatUtc(bar.updatedAt)}</td>
                  <td className="px-3 py-2">
                    {bar.orderId ? (
                      <span className="flex gap-3">
                        <Link
                          href={`/mints/${bar.orderId}`}
                          className="font-mono text-xs text-brand-700 hover:underline"
                          aria-label={`Order ${bar.orderId}`}
                        >
                          {bar.orderId.slice(0, 8)}
                        </Link>
                        <Link
                          href={`/admin/jobs?q=${bar.orderId}`}
                          className="text-xs text-stone-600 hover:underline"
                          aria-label={`Jobs of order ${bar.orderId}`}
                        >
                          jobs
                        </Link>
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
              {query.isPending ? (
                <EmptyRow colSpan={6} text="Loading…" />
              ) : bars.length === 0 ? (
                <EmptyRow
                  colSpan={6}
                  text="No missing bar: every bar held by an order is on its vault's latest list."
                />
              ) : null}
            </tbody>
          </table>
        </ScrollX>
      </CardContent>
      {query.hasNextPage ? (
        <CardContent className="border-t border-stone-100 py-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'More missing bars'}
          </Button>
        </CardContent>
      ) : null}
    </Card>
  )
}
