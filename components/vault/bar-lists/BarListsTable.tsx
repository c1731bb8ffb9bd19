'use client'

import { useInfiniteQuery } from '@tanstack/react-query'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiBarListSummary } from '@/lib/web/vault/apiTypes'
import { fetchBarLists } from '../vaultApi'
import { barListsQueryKey } from './queryKeys'

const columns = [
  'Vault',
  'As of',
  'Imported',
  'Bars',
  'Added',
  'Unchanged',
  'Withdrawn',
  'Missing',
  'Conflicts',
] as const

/** The bar lists imported (GET /api/admin/vault/bar-lists), newest first, with their counts; older ones on demand. */
export function BarListsTable() {
  const query = useInfiniteQuery({
    queryKey: barListsQueryKey,
    queryFn: ({ pageParam, signal }) => fetchBarLists(pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
  const lists = query.data?.pages.flatMap((p) => p.items) ?? []
  return (
    <Card>
      <CardHeader>
        <CardTitle id="bar-lists-title">Imported bar lists</CardTitle>
        <CardDescription>Newest import first. The latest list of each vault is its inventory.</CardDescription>
      </CardHeader>
      {query.error ? (
        <CardContent>
          <Alert tone="error" title={`The lists could not be loaded: ${query.error.message}`} />
        </CardContent>
      ) : null}
      <CardContent className="p-0">
        <ScrollX label="Bar lists">
          <table className="w-full min-w-[56rem] text-sm" aria-labelledby="bar-lists-title">
            <TableHead>
              {columns.map((c, i) => (
                <ColumnHeader key={c} className="px-3 py-2" right={i >= 3}>
                  {c}
                </ColumnHeader>
              ))}
            </TableHead>
            <tbody>
              {lists.map((list) => (
                <BarListRow key={list.listId} list={list} />
              ))}
              {query.isPending ? (
                <EmptyRow colSpan={columns.length} text="Loading…" />
              ) : lists.length === 0 ? (
                <EmptyRow colSpan={columns.length} text="No bar list imported yet." />
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
            {query.isFetchingNextPage ? 'Loading…' : 'Older lists'}
          </Button>
        </CardContent>
      ) : null}
    </Card>
  )
}

function BarListRow({ list }: { list: ApiBarListSummary }) {
  const dev = list.metadata?.devData === true
  return (
    <tr className="border-t border-stone-100">
      <th scope="row" className="px-3 py-2 text-left font-medium">
        {list.vault} {dev ? <Badge tone="warning">dev data</Badge> : null}
      </th>
      <td className="tabular px-3 py-2">{formatUtc(list.asOf)}</td>
      <td className="px-3 py-2 text-xs text-stone-600">
        {formatUtc(list.importedAt)}
        <span className="block">{list.importedBy ?? 'script'}</span>
      </td>
      <td className="tabular px-3 py-2 text-right">{list.barCount}</td>
      <td className="tabular px-3 py-2 text-right">{list.added}</td>
      <td className="tabular px-3 py-2 text-right">{list.unchanged}</td>
      <td className="tabular px-3 py-2 text-right">{list.withdrawn}</td>
      <td className={`tabular px-3 py-2 text-right ${list.missingCount > 0 ? 'font-semibold text-red-700' : ''}`}>
        {list.missingCount}
      </td>
      <td className={`tabular px-3 py-2 text-right ${list.conflictCount > 0 ? 'font-semibold text-amber-700' : ''}`}>
        {list.conflictCount}
      </td>
    </tr>
  )
}
