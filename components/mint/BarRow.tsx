import { Button } from '@/components/ui/Button'
import { cn } from '@/components/ui/cn'
import { BarCells } from '@/components/vault/BarCells'
import type { PickedBar } from '@/components/vault/pickedBars'

export type BarRowProps = {
  bar: PickedBar
  index: number
  /** what the server (or the form) says about this bar: not in the vault, already used, ... */
  errors: string[]
  onRemove: () => void
}

/** One chosen bar: its serial, refiner, year, weights, the problems with it, and "Remove". */
export function BarRow({ bar, index, errors, onRemove }: BarRowProps) {
  const n = index + 1
  const errorId = `picked-bar-${bar.id}-error`
  return (
    <tr className={cn('border-t border-stone-100 align-top', errors.length > 0 && 'bg-red-50/60')}>
      <td className="px-3 py-2 text-right text-xs font-medium text-stone-500">{n}</td>
      <BarCells bar={bar} pad="px-2 py-2">
        {errors.length > 0 ? (
          <ul id={errorId} className="mt-1 space-y-0.5 font-sans text-xs font-normal text-red-700">
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </BarCells>
      <td className="px-3 py-1 text-right">
        <Button
          variant="ghost"
          size="sm"
          data-picked-index={index}
          onClick={onRemove}
          aria-label={`Remove bar ${bar.serial} (${bar.refiner})`}
          aria-describedby={errors.length > 0 ? errorId : undefined}
        >
          Remove
        </Button>
      </td>
    </tr>
  )
}
