import { useId } from 'react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { AmountHint } from './AmountHint'
import { describedBy } from './describedBy'
import { FieldError } from './FieldError'
import { checkAmount, type FieldErrors, type FineTotal, formatOz } from './mintFormModel'

export type RecipientField = 'to' | 'amount'

export type RecipientFieldsProps = {
  to: string
  amount: string
  /** the bars' total fine weight, to check the amount against and to fill it with */
  total: FineTotal
  errors: FieldErrors
  onChange: (field: RecipientField, value: string) => void
}

/**
 * Who receives the tokens and how many: the recipient address and the amount, checked
 * as you type against the bars' total fine weight ("Use total" fills it in).
 */
export function RecipientFields({ to, amount, total, errors, onChange }: RecipientFieldsProps) {
  const ids = { to: useId(), amount: useId() }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recipient and amount</CardTitle>
        <CardDescription>1 token = 1 fine troy ounce. The amount must equal the total fine weight of the bars.</CardDescription>
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
          <div className="flex gap-2">
            <Input
              id={ids.amount}
              name="amount"
              value={amount}
              onChange={(e) => onChange('amount', e.target.value)}
              inputMode="decimal"
              placeholder="802.168"
              autoComplete="off"
              className="tabular text-right"
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={describedBy(errors, { errorId: `${ids.amount}-error`, path: 'amount', hintId: `${ids.amount}-check` })}
            />
            <Button
              variant="secondary"
              onClick={() => onChange('amount', formatOz(total.milliOz))}
              disabled={total.incomplete > 0 || total.milliOz === 0n}
              title="Fill the amount with the total fine weight of the bars"
            >
              Use total
            </Button>
          </div>
          <FieldError id={`${ids.amount}-error`} message={errors.amount} />
          <AmountHint id={`${ids.amount}-check`} check={checkAmount(amount, total)} total={formatOz(total.milliOz)} />
        </div>
      </CardContent>
    </Card>
  )
}
