import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiReserves } from '@/lib/web/reserves/apiTypes'

/** The custodian's latest bar list of each vault, and its date: the inventory the figures are counted from. */
export function BarListDates({ barLists }: { barLists: ApiReserves['barLists'] }) {
  if (barLists.length === 0) return <p className="text-sm text-stone-500">No bar list has been imported yet.</p>
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Latest bar list of each vault</caption>
      <thead>
        <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
          <th scope="col" className="py-2 pr-3 font-medium">
            Vault
          </th>
          <th scope="col" className="py-2 font-medium">
            Bar list as of
          </th>
        </tr>
      </thead>
      <tbody>
        {barLists.map((l) => (
          <tr key={l.vault} className="border-b border-stone-100 last:border-0">
            <th scope="row" className="py-2 pr-3 text-left font-mono font-normal">
              {l.vault}
            </th>
            <td className="py-2">
              <time dateTime={l.asOf}>{formatUtc(l.asOf)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
