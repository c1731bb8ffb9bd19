import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { TableHead } from '@/components/ui/Table'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import { BarCells, BarColumnHeaders } from './BarCells'
import { type PickedBar, pickStateOf } from './pickedBars'

export type BarSearchResultsProps = {
  /** the table's accessible name ("Available bars in LDN-1") */
  label: string
  bars: ApiVaultBar[]
  picked: readonly PickedBar[]
  onAdd: (bar: ApiVaultBar) => void
  /** where the focus goes when no "Add" button is left to take it */
  fallbackFocusId: string
}

const buttonText = { add: 'Add', added: 'Added', full: 'Full' } as const

/**
 * The bars found, one row each with its serial, refiner, year, gross weight, fineness
 * and fine weight, and an "Add" button. After an add the focus moves to the next bar's
 * button (the one pressed becomes "Added"), so a keyboard user can add bar after bar.
 */
export function BarSearchResults({ label, bars, picked, onAdd, fallbackFocusId }: BarSearchResultsProps) {
  const body = useRef<HTMLTableSectionElement>(null)
  const [focusAfter, setFocusAfter] = useState<{ index: number } | null>(null)

  useEffect(() => {
    if (!focusAfter) return
    const buttons = [...(body.current?.querySelectorAll<HTMLButtonElement>('button[data-result-index]') ?? [])].filter(
      (b) => !b.disabled,
    )
    const next = buttons.find((b) => Number(b.dataset.resultIndex) > focusAfter.index) ?? buttons[0]
    ;(next ?? document.getElementById(fallbackFocusId))?.focus()
    setFocusAfter(null)
  }, [focusAfter, fallbackFocusId])

  return (
    <table className="w-full min-w-[44rem] text-sm" aria-label={label}>
      <TableHead>
        <BarColumnHeaders pad="px-2 py-2" serialPad="px-3 py-2" />
        <th scope="col" className="px-3 py-2">
          <span className="sr-only">Actions</span>
        </th>
      </TableHead>
      <tbody ref={body}>
        {bars.map((bar, index) => {
          const state = pickStateOf(bar, picked)
          return (
            <tr key={bar.id} className="border-t border-stone-100">
              <BarCells bar={bar} pad="px-2 py-1.5" serialPad="px-3 py-1.5" />
              <td className="px-3 py-1 text-right">
                <Button
                  variant={state === 'add' ? 'secondary' : 'ghost'}
                  size="sm"
                  data-result-index={index}
                  disabled={state !== 'add'}
                  aria-label={
                    state === 'add'
                      ? `Add bar ${bar.serial} (${bar.refiner})`
                      : `Bar ${bar.serial} (${bar.refiner}): ${buttonText[state].toLowerCase()}`
                  }
                  onClick={() => {
                    onAdd(bar)
                    setFocusAfter({ index })
                  }}
                >
                  {buttonText[state]}
                </Button>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
