import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiAuditEntry } from '@/lib/web/audit/responseSchemas'

const COLUMNS = ['#', 'When', 'Actor', 'Action', 'Target', 'Detail', 'Hash'] as const

/** A page of audit rows, newest first: who did what to which target, its detail, and the start of its chained hash. */
export function AuditTable({ items }: { items: readonly ApiAuditEntry[] }) {
  return (
    <ScrollX label="Audit rows">
      <table className="w-full min-w-[56rem] text-sm">
        <caption className="sr-only">Audit rows, newest first</caption>
        <TableHead>
          {COLUMNS.map((c) => (
            <ColumnHeader key={c} className="px-3 py-2" right={c === '#'}>
              {c}
            </ColumnHeader>
          ))}
        </TableHead>
        <tbody>
          {items.length === 0 ? <EmptyRow colSpan={COLUMNS.length} text="No audit row matches." /> : null}
          {items.map((r) => (
            <tr key={r.seq} className="border-t border-stone-100 align-top">
              <td className="tabular px-3 py-2 text-right">{r.seq}</td>
              <td className="whitespace-nowrap px-3 py-2">
                <time dateTime={r.at}>{formatUtc(r.at)}</time>
              </td>
              <td className="px-3 py-2">{r.actorEmail}</td>
              <td className="px-3 py-2 font-mono text-xs">{r.action}</td>
              <td className="px-3 py-2 font-mono text-xs break-all">
                {r.targetType}:{r.targetId}
              </td>
              <td className="max-w-[24rem] px-3 py-2 font-mono text-xs break-all text-stone-700">
                {r.detail === null ? '—' : JSON.stringify(r.detail)}
              </td>
              <td className="px-3 py-2 font-mono text-xs" title={r.hash}>
                {r.hash.slice(0, 12)}…
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  )
}
