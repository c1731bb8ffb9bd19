import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { AmountHint } from './AmountHint'
import { describedBy } from './describedBy'
import { FieldError } from './FieldError'
import { fetchRecipientChoices, recipientChoicesQueryKey } from './mintApi'
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
 * Who receives the tokens and how many: the recipient address, offered from the allowlist
 * (GET /api/gold/recipients, by label, in the browser's own picker; another address may be
 * typed, and is refused if not allowed), and the amount, which is the total fine weight of
 * the chosen bars (read-only: it cannot differ from them).
 */
export function RecipientFields({ to, amount, barCount, errors, onChange }: RecipientFieldsProps) {
  const ids = { to: useId(), amount: useId(), choices: useId() }
  const choices = useQuery({ queryKey: recipientChoicesQueryKey, queryFn: fetchRecipientChoices, staleTime: 60_000 })
  const chosen = choices.data?.items.find((c) => c.address.toLowerCase() === to.trim().toLowerCase())
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
            placeholder="0x… or pick an allowed recipient"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            list={ids.choices}
            aria-invalid={errors.to ? true : undefined}
            aria-describedby={describedBy(errors, { errorId: `${ids.to}-error`, path: 'to' })}
          />
          <datalist id={ids.choices}>
            {choices.data?.items.map((c) => (
              <option key={c.address} value={c.address} label={c.label} />
            ))}
          </datalist>
          {chosen ? (
            <p className="mt-1 text-xs text-stone-600">
              Allowed recipient: <span className="font-medium">{chosen.label}</span>
            </p>
          ) : choices.data ? (
            <p className="mt-1 text-xs text-stone-500">
              {choices.data.items.length} allowed recipient{choices.data.items.length === 1 ? '' : 's'}: pick one from
              the list, or paste an address on it.
            </p>
          ) : null}
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
