import Link from 'next/link'
import { shortHex } from '@/components/mint/format'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiRedemptionSummary } from '@/lib/web/redemptions/apiTypes'

export type RedemptionsAwaitingApprovalProps = {
  redemptions: readonly ApiRedemptionSummary[]
  /** the signed-in approver: their own requests are another person's to decide */
  viewerEmail: string
}

/**
 * The redemptions awaiting approvers' signatures, oldest first, each linking to its page, where the burn's intent
 * is signed or the redemption rejected.
 */
export function RedemptionsAwaitingApproval({ redemptions, viewerEmail }: RedemptionsAwaitingApprovalProps) {
  const oldestFirst = [...redemptions].reverse()
  const columns = ['Redemption', 'Amount (oz)', 'Holder', 'Bars', 'Reference', 'Requested', '']
  return (
    <Card>
      <CardHeader>
        <CardTitle id="redemptions-awaiting-title">Redemptions awaiting approval</CardTitle>
        <CardDescription>
          Each burn is signed by approvers other than its requester, on the redemption&apos;s page.
        </CardDescription>
      </CardHeader>
      <CardContent className="p-0">
        <ScrollX label="Redemptions awaiting approval">
          <table className="w-full text-sm" aria-labelledby="redemptions-awaiting-title">
            <TableHead>
              {columns.map((c) => (
                <ColumnHeader key={c} className="px-3 py-2" right={c === 'Amount (oz)' || c === 'Bars'}>
                  {c === '' ? <span className="sr-only">Decision</span> : c}
                </ColumnHeader>
              ))}
            </TableHead>
            <tbody>
              {oldestFirst.length === 0 ? (
                <EmptyRow colSpan={columns.length} text="No redemption awaits a signature." />
              ) : null}
              {oldestFirst.map((r) => {
                const own = r.requestedBy.toLowerCase() === viewerEmail.toLowerCase()
                return (
                  <tr key={r.redemptionId} className="border-t border-stone-100">
                    <td className="px-3 py-2 font-mono text-xs">
                      <Link
                        href={`/redemptions/${r.redemptionId}`}
                        className="text-brand-700 underline-offset-2 hover:underline"
                      >
                        {r.redemptionId.slice(0, 8)}
                      </Link>
                    </td>
                    <td className="tabular px-3 py-2 text-right font-medium">{r.amount}</td>
                    <td className="px-3 py-2 font-mono text-xs" title={r.holder}>
                      {shortHex(r.holder)}
                    </td>
                    <td className="tabular px-3 py-2 text-right">{r.bars}</td>
                    <td className="max-w-48 truncate px-3 py-2" title={r.reference}>
                      {r.reference}
                    </td>
                    <td className="px-3 py-2">
                      {r.requestedBy}
                      <div className="text-xs text-stone-600">
                        <time dateTime={r.createdAt}>{formatUtc(r.createdAt)}</time>
                      </div>
                    </td>
                    <td className="px-3 py-2 text-right">
                      {own ? (
                        <span className="text-xs text-stone-500">yours: another person decides</span>
                      ) : (
                        <Link
                          href={`/redemptions/${r.redemptionId}`}
                          className="inline-flex h-8 items-center rounded-md bg-brand-600 px-3 text-sm font-medium text-white hover:bg-brand-700"
                          aria-label={`Review and sign the redemption of ${r.amount} oz`}
                        >
                          Review and sign
                        </Link>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </ScrollX>
      </CardContent>
    </Card>
  )
}
