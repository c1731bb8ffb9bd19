import { Button } from '@/components/ui/Button'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import type { MatchBarsToDepositReturnType } from './matchBarsToDeposit'

export type PickedRedemptionBarsProps = {
  bars: readonly ApiVaultBar[]
  /** the chosen deposit's amount, null before one is chosen */
  depositOz: string | null
  match: MatchBarsToDepositReturnType | null
  onRemove: (barId: string) => void
}

/** The running fine weight against the deposit, in words that say what is left to do. */
function matchSentence(depositOz: string | null, match: MatchBarsToDepositReturnType | null): string {
  if (depositOz === null || match === null) return 'Choose a deposit to match the bars against.'
  const of = `${match.pickedOz} of ${depositOz} oz`
  switch (match.state) {
    case 'empty':
      return `0.000 of ${depositOz} oz: add bars.`
    case 'short':
      return `${of}: ${match.remainingOz} oz to go.`
    case 'over':
      return `${of}: ${match.remainingOz.slice(1)} oz too much; remove a bar.`
    case 'equal':
      return `${of}: the bars match the deposit.`
    case 'unmatchable':
      return 'This deposit is no whole number of milli-ounces: no set of bars can match it.'
  }
}

/** The bars picked for the redemption, each removable, with their running fine weight against the deposit. */
export function PickedRedemptionBars({ bars, depositOz, match, onRemove }: PickedRedemptionBarsProps) {
  const equal = match?.state === 'equal'
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium text-stone-700">Bars to redeem</h3>
      <ScrollX label="Bars to redeem" className="rounded-md border border-stone-200">
        <table className="w-full text-sm" aria-label="Bars to redeem">
          <TableHead>
            <ColumnHeader className="px-3 py-2">Serial</ColumnHeader>
            <ColumnHeader className="px-3 py-2">Refiner</ColumnHeader>
            <ColumnHeader className="px-3 py-2">Vault</ColumnHeader>
            <ColumnHeader className="px-3 py-2" right>
              Fine oz
            </ColumnHeader>
            <ColumnHeader className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </ColumnHeader>
          </TableHead>
          <tbody>
            {bars.length === 0 ? <EmptyRow colSpan={5} text="No bar picked yet." /> : null}
            {bars.map((bar) => (
              <tr key={bar.id} className="border-t border-stone-100">
                <th scope="row" className="px-3 py-1.5 text-left font-mono text-xs font-medium text-stone-800">
                  {bar.serial}
                </th>
                <td className="px-3 py-1.5">{bar.refiner}</td>
                <td className="px-3 py-1.5 font-mono text-xs">{bar.vault}</td>
                <td className="tabular px-3 py-1.5 text-right font-medium">{bar.fineOz}</td>
                <td className="px-3 py-1 text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove bar ${bar.serial} (${bar.refiner})`}
                    onClick={() => onRemove(bar.id)}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      <p
        role="status"
        aria-label="Fine weight against the deposit"
        className={`tabular text-sm font-medium ${equal ? 'text-emerald-800' : 'text-stone-700'}`}
      >
        {matchSentence(depositOz, match)}
      </p>
    </div>
  )
}
