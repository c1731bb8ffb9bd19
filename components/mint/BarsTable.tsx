import { type ReactNode, useEffect, useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { MINT_LIMITS } from '@/lib/mint/limits'
import { type BarField, BarRow, barColumns } from './BarRow'
import { type BarDraft, type FieldErrors, type FineTotal, formatOz } from './mintFormModel'

export type BarsTableProps = {
  bars: BarDraft[]
  total: FineTotal
  errors: FieldErrors
  onChange: (index: number, field: BarField, value: string) => void
  /** adds a row and returns its id, so its first field gets the focus */
  onAdd: () => string
  onRemove: (index: number) => void
  /** the card's footer (the form's submit row) */
  children?: ReactNode
}

/**
 * The bars behind the mint, one row each, with their total fine weight. Its own
 * component because it is the part of the form that changes next (a picker from the
 * vault inventory, issue 12).
 */
export function BarsTable({ bars, total, errors, onChange, onAdd, onRemove, children }: BarsTableProps) {
  const titleId = useId()
  const [focusBarId, setFocusBarId] = useState<string | null>(null)

  useEffect(() => {
    if (focusBarId) document.getElementById(`${focusBarId}-serial`)?.focus()
  }, [focusBarId])

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>Bars</CardTitle>
        <CardDescription>
          Fine weight = gross × fineness / 1000, rounded down to 0.001 oz (LBMA). Up to {MINT_LIMITS.maxBars} bars; each bar can back
          one order only.
        </CardDescription>
      </CardHeader>
      <CardContent className="overflow-x-auto p-0">
        <table className="w-full min-w-[52rem] text-sm" aria-labelledby={titleId}>
          <thead className="bg-stone-50 text-left text-xs font-medium uppercase tracking-wide text-stone-500">
            <tr>
              <th scope="col" className="w-10 px-3 py-2 text-right">
                #
              </th>
              {barColumns.map((c) => (
                <th key={c.field} scope="col" className="px-2 py-2">
                  {c.label}
                </th>
              ))}
              <th scope="col" className="px-2 py-2 text-right">
                Fine oz
              </th>
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar, index) => (
              <BarRow
                key={bar.id}
                bar={bar}
                index={index}
                errors={errors}
                canRemove={bars.length > 1}
                onChange={(field, value) => onChange(index, field, value)}
                onRemove={() => onRemove(index)}
              />
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-stone-200 bg-stone-50">
              <td colSpan={6} className="px-3 py-3">
                <Button variant="secondary" size="sm" onClick={() => setFocusBarId(onAdd())} disabled={bars.length >= MINT_LIMITS.maxBars}>
                  + Add bar
                </Button>
                {errors['vaultProof.bars'] ? <span className="ml-3 text-xs text-red-700">{errors['vaultProof.bars']}</span> : null}
              </td>
              <td className="px-2 py-3 text-right font-medium">
                <span className="sr-only">Total fine weight: </span>
                <output aria-label="Total fine weight" className="tabular">
                  {formatOz(total.milliOz)}
                </output>
                {total.incomplete > 0 ? (
                  <span className="block text-xs font-normal text-stone-500">
                    {total.incomplete} bar{total.incomplete === 1 ? '' : 's'} incomplete
                  </span>
                ) : null}
              </td>
              <td />
            </tr>
          </tfoot>
        </table>
      </CardContent>
      {children}
    </Card>
  )
}
