import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { cn } from '@/components/ui/cn'
import { FieldError } from './FieldError'
import { type BarDraft, type FieldErrors, fineMilliOzOf, formatOz } from './mintFormModel'

export type BarField = 'serial' | 'refiner' | 'year' | 'grossOz' | 'fineness'

export const barColumns: { field: BarField; label: string; placeholder: string; inputMode?: 'decimal' | 'numeric'; width: string }[] = [
  { field: 'serial', label: 'Serial', placeholder: 'AB123456', width: 'w-36' },
  { field: 'refiner', label: 'Refiner', placeholder: 'Valcambi SA', width: 'w-44' },
  { field: 'year', label: 'Year', placeholder: '2025', inputMode: 'numeric', width: 'w-24' },
  { field: 'grossOz', label: 'Gross oz', placeholder: '401.125', inputMode: 'decimal', width: 'w-28' },
  { field: 'fineness', label: 'Fineness', placeholder: '999.9', inputMode: 'decimal', width: 'w-24' },
]

export type BarRowProps = {
  bar: BarDraft
  index: number
  errors: FieldErrors
  canRemove: boolean
  onChange: (field: BarField, value: string) => void
  onRemove: () => void
}

/** One bar of the table: its fields ("Bar 2 serial", ...) and its fine weight, computed as you type. */
export function BarRow({ bar, index, errors, canRemove, onChange, onRemove }: BarRowProps) {
  const n = index + 1
  const base = `vaultProof.bars.${index}`
  const fine = fineMilliOzOf(bar)
  const rowError = errors[base]
  const fineError = errors[`${base}.fineOz`]
  return (
    <tr className={cn('border-t border-stone-100 align-top', rowError && 'bg-red-50/60')}>
      <th scope="row" className="px-3 py-2 pt-4 text-right text-xs font-medium text-stone-500">
        {n}
      </th>
      {barColumns.map((c) => {
        const path = `${base}.${c.field}`
        const id = `${bar.id}-${c.field}`
        const error = errors[path] ?? (c.field === 'serial' ? rowError : undefined)
        return (
          <td key={c.field} className="px-2 py-2">
            <Input
              id={id}
              aria-label={`Bar ${n} ${c.label.toLowerCase()}`}
              value={bar[c.field]}
              onChange={(e) => onChange(c.field, e.target.value)}
              placeholder={c.placeholder}
              inputMode={c.inputMode}
              autoComplete="off"
              spellCheck={false}
              className={cn(c.width, c.inputMode && 'tabular text-right')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            <FieldError id={`${id}-error`} message={error} />
          </td>
        )
      })}
      <td className="px-2 py-2 pt-4 text-right">
        <output aria-label={`Bar ${n} fine weight`} className={cn('tabular', fine === null && 'text-stone-400')}>
          {fine === null ? '—' : formatOz(fine)}
        </output>
        <FieldError id={`${bar.id}-fineOz-error`} message={fineError} />
      </td>
      <td className="px-3 py-2">
        <Button variant="ghost" size="sm" onClick={onRemove} disabled={!canRemove} aria-label={`Remove bar ${n}`}>
          Remove
        </Button>
      </td>
    </tr>
  )
}
