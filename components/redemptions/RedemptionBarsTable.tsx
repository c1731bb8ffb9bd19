import Link from 'next/link'
import { Badge, type BadgeTone } from '@/components/ui/Badge'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import type { ApiRedemptionBar } from '@/lib/web/redemptions/apiTypes'

const TONES: Record<string, BadgeTone> = {
  backing: 'info',
  redeemed: 'success',
  withdrawn: 'neutral',
  missing: 'danger',
}

export type RedemptionBarsTableProps = {
  bars: readonly ApiRedemptionBar[]
  /** the viewer reads mint orders beyond their own: the bar's mint order is a link */
  linkOrders: boolean
}

/** The bars a redemption takes: serial, refiner, vault, fine weight, their status now, and the mint each backed. */
export function RedemptionBarsTable({ bars, linkOrders }: RedemptionBarsTableProps) {
  return (
    <ScrollX label="Bars of this redemption" className="rounded-md border border-stone-200">
      <table className="w-full text-sm" aria-label="Bars of this redemption">
        <TableHead>
          <ColumnHeader className="px-3 py-2">Serial</ColumnHeader>
          <ColumnHeader className="px-3 py-2">Refiner</ColumnHeader>
          <ColumnHeader className="px-3 py-2">Vault</ColumnHeader>
          <ColumnHeader className="px-3 py-2" right>
            Fine oz
          </ColumnHeader>
          <ColumnHeader className="px-3 py-2">Status</ColumnHeader>
          <ColumnHeader className="px-3 py-2">Minted by</ColumnHeader>
        </TableHead>
        <tbody>
          {bars.map((bar) => (
            <tr key={`${bar.vault}|${bar.serial}|${bar.refiner}`} className="border-t border-stone-100">
              <th
                scope="row"
                className="whitespace-nowrap px-3 py-2 text-left font-mono text-xs font-medium text-stone-800"
              >
                {bar.serial}
              </th>
              <td className="px-3 py-2">{bar.refiner}</td>
              <td className="px-3 py-2 font-mono text-xs">{bar.vault}</td>
              <td className="tabular px-3 py-2 text-right font-medium">{bar.fineOz}</td>
              <td className="px-3 py-2">
                <Badge tone={TONES[bar.status] ?? 'neutral'} data-status={bar.status}>
                  {bar.status}
                </Badge>
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                {bar.orderId === null ? (
                  '—'
                ) : linkOrders ? (
                  <Link href={`/mints/${bar.orderId}`} className="text-brand-700 underline-offset-2 hover:underline">
                    {bar.orderId.slice(0, 8)}
                  </Link>
                ) : (
                  bar.orderId.slice(0, 8)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  )
}
