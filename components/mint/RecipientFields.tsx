import { useId } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { AmountHint } from './AmountHint'
import { describedBy } from './describedBy'
import { FieldError } from './FieldError'
import type { FieldErrors } from './mintFormModel'

export type RecipientFieldsProps = {
  to: string
  /** the bars' total fine weight ('' while there is no bar): not typed, shown */
  amount: string
  barCount: number
  errors: FieldErrors
  onChange: (field: 'to', value: string) => void
}

/**
 * Who receives the tokens and how many: the recipient address, and the amount, which is
 * the total fine weight of the chosen bars (read-only: it cannot differ from them).
 */
export function RecipientFields({ to, amount, barCount, errors, onChange }: RecipientFieldsProps) {
  const ids = { to: useId(), amount: useId() }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recipient and amount</CardTitle>
        <CardDescription>1 token = 1 fine troy ounce: the amount is the total fine weight of the bars.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <div>
          <Label htmlFor={ids.to}>Recipient address</Label>
          <Input
            id={ids.to}
            name="to"
            value={to}
            onChange={(e) => onChange('to', e.target.value)}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            aria-invalid={errors.to ? true : undefined}
            aria-describedby={describedBy(errors, { errorId: `${ids.to}-error`, path: 'to' })}
          />
          <FieldError id={`${ids.to}-error`} message={errors.to} />
        </div>
        <div>
          <Label htmlFor={ids.amount}>Amount (fine oz)</Label>
          <Input
            id={ids.amount}
            name="amount"
            value={amount}
            readOnly
            placeholder="0.000"
            className="tabular bg-stone-50 text-right"
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={describedBy(errors, {
              errorId: `${ids.amount}-error`,
              path: 'amount',
              hintId: `${ids.amount}-hint`,
            })}
          />
          <FieldError id={`${ids.amount}-error`} message={errors.amount} />
          <AmountHint id={`${ids.amount}-hint`} barCount={barCount} />
        </div>
      </CardContent>
    </Card>
  )
}
