import Link from 'next/link'
import { shortHex } from '@/components/mint/format'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiDeposit } from '@/lib/web/redemptions/apiTypes'
import { depositKey } from './depositKey'
import { DEPOSIT_STATUS_WORDS } from './redemptionStatusWords'

export type DepositsTableProps = {
  /** unmatched first (sortDeposits) */
  deposits: readonly ApiDeposit[]
  /** the viewer may request redemptions: an unmatched deposit offers "Match" */
  canRequest: boolean
  /** the deposit chosen in the form (depositKey) */
  selected: string
  onSelect: (key: string) => void
}

/**
 * The transfers to the redemption address the worker has seen with their confirmations: status, amount, holder,
 * transaction, when seen, and the redemption that holds each. An unmatched deposit is chosen for the form with
 * "Match".
 */
export function DepositsTable({ deposits, canRequest, selected, onSelect }: DepositsTableProps) {
  const columns = ['Status', 'Amount (oz)', 'From', 'Transaction', 'Seen', '']
  return (
    <ScrollX label="Deposits">
      <table className="w-full text-sm" aria-label="Deposits">
        <TableHead>
          {columns.map((c) => (
            <ColumnHeader key={c} className="px-4 py-2" right={c === 'Amount (oz)'}>
              {c === '' ? <span className="sr-only">Redemption</span> : c}
            </ColumnHeader>
          ))}
        </TableHead>
        <tbody>
          {deposits.length === 0 ? (
            <EmptyRow colSpan={columns.length} text="No deposit to the redemption address yet." />
          ) : null}
          {deposits.map((d) => {
            const key = depositKey(d)
            const words = DEPOSIT_STATUS_WORDS[d.status]
            return (
              <tr key={key} className="border-t border-stone-100" data-deposit-tx={d.txHash}>
                <td className="px-4 py-2">
                  <Badge tone={words.tone} data-status={d.status}>
                    {words.label}
                  </Badge>
                </td>
                <td className="tabular px-4 py-2 text-right font-medium">{d.amount}</td>
                <td className="px-4 py-2 font-mono text-xs" title={d.from}>
                  {shortHex(d.from)}
                </td>
                <td className="px-4 py-2 font-mono text-xs" title={d.txHash}>
                  {shortHex(d.txHash, 10, 6)} · log {d.logIndex} · block {d.blockNumber}
                </td>
                <td className="whitespace-nowrap px-4 py-2 text-stone-600">
                  <time dateTime={d.seenAt}>{formatUtc(d.seenAt)}</time>
                </td>
                <td className="px-4 py-2 text-right">
                  {d.redemptionId ? (
                    <Link
                      href={`/redemptions/${d.redemptionId}`}
                      className="font-mono text-xs text-brand-700 underline-offset-2 hover:underline"
                    >
                      {d.redemptionId.slice(0, 8)}
                    </Link>
                  ) : canRequest ? (
                    <Button
                      size="sm"
                      variant={selected === key ? 'ghost' : 'secondary'}
                      disabled={selected === key}
                      aria-label={`Match the deposit of ${d.amount} oz from ${d.from}`}
                      onClick={() => onSelect(key)}
                    >
                      {selected === key ? 'Chosen' : 'Match'}
                    </Button>
                  ) : null}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </ScrollX>
  )
}
