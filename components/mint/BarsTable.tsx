import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ScrollX } from '@/components/ui/ScrollX'
import { TableHead } from '@/components/ui/Table'
import { BarColumnHeaders } from '@/components/vault/BarCells'
import { formatOz, type PickedBar, pickedTotals } from '@/components/vault/pickedBars'
import { MINT_REQUEST_LIMITS } from '@/lib/mint/mintRequestLimits'
import { BarRow } from './BarRow'
import { barErrorsOf, type FieldErrors } from './mintFormModel'

export type BarsTableProps = {
  bars: PickedBar[]
  errors: FieldErrors
  onRemove: (index: number) => void
  /** where the focus goes when the last bar is removed (the search box) */
  fallbackFocusId: string
  /** the card's footer (the form's submit row) */
  children?: ReactNode
}

/**
 * The bars chosen for the mint, one row each with "Remove", and their live totals: the
 * bar count and the total fine weight, which is the amount. A removed bar hands the
 * focus to the next one's "Remove" (or the search box), so the keyboard never loses it.
 */
export function BarsTable({ bars, errors, onRemove, fallbackFocusId, children }: BarsTableProps) {
  const titleId = useId()
  const body = useRef<HTMLTableSectionElement>(null)
  const [focusAt, setFocusAt] = useState<{ index: number } | null>(null)
  const totals = pickedTotals(bars)

  useEffect(() => {
    if (!focusAt) return
    const buttons = [...(body.current?.querySelectorAll<HTMLButtonElement>('button[data-picked-index]') ?? [])]
    const next = buttons[Math.min(focusAt.index, buttons.length - 1)]
    ;(next ?? document.getElementById(fallbackFocusId))?.focus()
    setFocusAt(null)
  }, [focusAt, fallbackFocusId])

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>Bars of this mint</CardTitle>
        <CardDescription>
          Weights come from the vault&apos;s bar list; fine weight = gross × fineness / 1000, rounded down to 0.001 oz
          (LBMA). Up to {MINT_REQUEST_LIMITS.maxBars} bars.
        </CardDescription>
      </CardHeader>
      <CardContent className="p-0">
        <ScrollX label="Bars of this order">
          <table className="w-full min-w-[44rem] text-sm" aria-labelledby={titleId}>
            <TableHead>
              <th scope="col" className="w-10 px-3 py-2 text-right">
                #
              </th>
              <BarColumnHeaders pad="px-2 py-2" />
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </TableHead>
            <tbody ref={body}>
              {bars.map((bar, index) => (
                <BarRow
                  key={bar.id}
                  bar={bar}
                  index={index}
                  errors={barErrorsOf(errors, index)}
                  onRemove={() => {
                    onRemove(index)
                    setFocusAt({ index })
                  }}
                />
              ))}
              {bars.length === 0 ? (
                <tr className="border-t border-stone-100">
                  <td colSpan={8} className="px-3 py-4 text-center text-sm text-stone-500">
                    No bar yet: search the vault above and add the bars behind this mint.
                  </td>
                </tr>
              ) : null}
            </tbody>
            <tfoot>
              <tr className="border-t border-stone-200 bg-stone-50">
                <td colSpan={6} className="px-3 py-3 text-sm">
                  <output aria-label="Bar count" className="tabular font-medium">
                    {totals.count}
                  </output>{' '}
                  bar{totals.count === 1 ? '' : 's'}
                  {errors['vaultProof.bars'] ? (
                    <span className="ml-3 text-xs text-red-700">{errors['vaultProof.bars']}</span>
                  ) : null}
                </td>
                <td className="px-2 py-3 text-right font-medium">
                  <span className="sr-only">Total fine weight: </span>
                  <output aria-label="Total fine weight" className="tabular">
                    {formatOz(totals.milliOz)}
                  </output>
                </td>
                <td />
              </tr>
            </tfoot>
          </table>
        </ScrollX>
      </CardContent>
      {children}
    </Card>
  )
}
