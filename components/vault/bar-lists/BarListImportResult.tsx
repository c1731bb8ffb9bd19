import Link from 'next/link'
import { Alert } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import type { ApiBarListImport } from '@/lib/web/vault/apiTypes'
import { BarCells, type BarColumn, BarColumnHeaders } from '../BarCells'

/** A bar's identity: its serial and refiner. */
const identity: readonly BarColumn[] = ['serial', 'refiner']

/**
 * What an import did: bars added, unchanged and withdrawn; the bars an order holds that
 * the list lacks (now missing: the reserves no longer cover them); and the conflicts,
 * bars whose attributes differ from the inventory (reported, never applied).
 */
export function BarListImportResult({ result }: { result: ApiBarListImport }) {
  const counts = [
    ['Added', result.added],
    ['Unchanged', result.unchanged],
    ['Withdrawn', result.withdrawn],
    ['Missing', result.missing.length],
    ['Conflicts', result.conflicts.length],
  ] as const
  const trouble = result.missing.length > 0 || result.conflicts.length > 0
  return (
    <section aria-label="Import result" className="space-y-4">
      <Alert
        tone={trouble ? 'warning' : 'success'}
        title={`Imported the list of ${result.vault} as of ${formatUtc(result.asOf)}.`}
      >
        <dl className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
          {counts.map(([label, n]) => (
            <div key={label} className="flex gap-1.5">
              <dt>{label}:</dt> <dd className="tabular font-semibold">{n}</dd>
            </div>
          ))}
        </dl>
      </Alert>
      {result.missing.length > 0 ? (
        <table className="w-full text-sm" aria-label="Missing bars of this import">
          <caption className="mb-1 text-left text-sm font-medium text-red-800">
            Held by an order but not on this list: these bars no longer back their tokens.
          </caption>
          <TableHead>
            <BarColumnHeaders columns={identity} pad="px-3 py-1.5" />
            <ColumnHeader className="px-3 py-1.5">Order</ColumnHeader>
          </TableHead>
          <tbody>
            {result.missing.map((bar) => (
              <tr key={`${bar.serial}\u0000${bar.refiner}`} className="border-t border-stone-100">
                <BarCells bar={bar} columns={identity} pad="px-3 py-1.5" />
                <td className="px-3 py-1.5">
                  {bar.orderId ? (
                    <Link href={`/mints/${bar.orderId}`} className="font-mono text-xs text-brand-700 hover:underline">
                      {bar.orderId.slice(0, 8)}
                    </Link>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {result.conflicts.length > 0 ? (
        <table className="w-full text-sm" aria-label="Conflicts">
          <caption className="mb-1 text-left text-sm font-medium text-amber-800">
            Listed with other attributes than the inventory has: not applied. Ask the custodian.
          </caption>
          <TableHead>
            {['Serial', 'Refiner', 'Field', 'Inventory', 'List'].map((h) => (
              <ColumnHeader key={h} className="px-3 py-1.5">
                {h}
              </ColumnHeader>
            ))}
          </TableHead>
          <tbody>
            {result.conflicts.map((c) => (
              <tr key={`${c.serial}\u0000${c.refiner}\u0000${c.field}`} className="border-t border-stone-100">
                <th scope="row" className="px-3 py-1.5 text-left font-mono text-xs font-medium">
                  {c.serial}
                </th>
                <td className="px-3 py-1.5">{c.refiner}</td>
                <td className="px-3 py-1.5">{c.field}</td>
                <td className="tabular px-3 py-1.5">{c.inventory}</td>
                <td className="tabular px-3 py-1.5">{c.list}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  )
}
