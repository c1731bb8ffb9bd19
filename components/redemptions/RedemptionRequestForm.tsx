'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { type FormEvent, useId, useState } from 'react'
import { shortHex } from '@/components/mint/format'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { ApiError } from '@/lib/web/errors/api'
import type { ApiDeposit } from '@/lib/web/redemptions/apiTypes'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import { BackingBarPicker } from './BackingBarPicker'
import { depositKey } from './depositKey'
import { matchBarsToDeposit } from './matchBarsToDeposit'
import { PickedRedemptionBars } from './PickedRedemptionBars'
import { postRedemption, REDEMPTIONS_QUERY_ROOT } from './redemptionsApi'

export type RedemptionRequestFormProps = {
  /** the deposits no open redemption holds: the ones a request may name */
  deposits: readonly ApiDeposit[]
  /** the deposit chosen (depositKey), '' for none; the deposits table sets it too */
  selected: string
  onSelect: (key: string) => void
}

/**
 * The redemption request (POST /api/gold/redemptions): a deposit, the whole backing bars that match it (picked
 * from the inventory, their running fine weight against the deposit's amount) and a reference. It refuses to send
 * until the bars weigh exactly the deposit; on success the browser opens the redemption's page, and a refusal's
 * sentence and issues are shown above the button.
 */
export function RedemptionRequestForm({ deposits, selected, onSelect }: RedemptionRequestFormProps) {
  const router = useRouter()
  const queryClient = useQueryClient()
  const depositId = useId()
  const referenceId = useId()
  const [bars, setBars] = useState<ApiVaultBar[]>([])
  const [reference, setReference] = useState('')
  const deposit = deposits.find((d) => depositKey(d) === selected) ?? null
  const match = deposit ? matchBarsToDeposit({ depositOz: deposit.amount, bars }) : null
  const ready = deposit !== null && match?.state === 'equal' && reference.trim() !== ''

  const mutation = useMutation({
    mutationFn: (d: ApiDeposit) =>
      postRedemption({
        depositTx: d.txHash,
        logIndex: d.logIndex,
        bars: bars.map((b) => ({ serial: b.serial, refiner: b.refiner })),
        reference: reference.trim(),
      }),
    onSuccess: (accepted) => {
      void queryClient.invalidateQueries({ queryKey: [REDEMPTIONS_QUERY_ROOT] })
      router.push(`/redemptions/${accepted.redemptionId}`)
    },
  })

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!ready || !deposit || mutation.isPending) return
    mutation.mutate(deposit)
  }

  const error = mutation.error
  return (
    <Card>
      <form onSubmit={onSubmit} noValidate aria-label="Request a redemption">
        <CardHeader>
          <CardTitle>Request a redemption</CardTitle>
          <CardDescription>
            Match a deposit to whole backing bars whose fine weight equals its amount exactly. Approvers then sign the
            burn; the bars are released to the holder once it is burned.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <div>
            <Label htmlFor={depositId}>Deposit</Label>
            <select
              id={depositId}
              value={deposit ? selected : ''}
              onChange={(e) => {
                onSelect(e.target.value)
                mutation.reset()
              }}
              className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm text-stone-900"
            >
              <option value="">{deposits.length === 0 ? 'No unmatched deposit' : 'Choose a deposit'}</option>
              {deposits.map((d) => (
                <option key={depositKey(d)} value={depositKey(d)}>
                  {`${d.amount} oz from ${shortHex(d.from)} (tx ${shortHex(d.txHash, 10, 6)}, log ${d.logIndex})`}
                </option>
              ))}
            </select>
          </div>
          <BackingBarPicker
            pickedIds={bars.map((b) => b.id)}
            onAdd={(bar) => {
              setBars((current) => (current.some((b) => b.id === bar.id) ? current : [...current, bar]))
              mutation.reset()
            }}
          />
          <PickedRedemptionBars
            bars={bars}
            depositOz={deposit?.amount ?? null}
            match={match}
            onRemove={(id) => {
              setBars((current) => current.filter((b) => b.id !== id))
              mutation.reset()
            }}
          />
          <div>
            <Label htmlFor={referenceId}>Reference</Label>
            <Input
              id={referenceId}
              value={reference}
              maxLength={200}
              onChange={(e) => setReference(e.target.value)}
              placeholder="The release instruction or ticket, e.g. REL-2026-0042"
            />
          </div>
          {error ? (
            <Alert tone="error" title={`The redemption was not accepted: ${error.message}`}>
              {error instanceof ApiError && error.issues.length > 0 ? (
                <ul className="list-disc pl-5">
                  {error.issues.map((i) => (
                    <li key={`${i.path}:${i.message}`}>{i.message}</li>
                  ))}
                </ul>
              ) : null}
            </Alert>
          ) : null}
        </CardContent>
        <CardFooter className="flex-wrap justify-between">
          <p className="text-sm text-stone-600">
            {deposit === null
              ? 'Choose a deposit first.'
              : match?.state !== 'equal'
                ? "The bars' fine weight must equal the deposit's amount before the request can be sent."
                : reference.trim() === ''
                  ? 'Give a reference.'
                  : 'Ready: approvers sign the burn next.'}
          </p>
          <Button type="submit" disabled={!ready || mutation.isPending}>
            {mutation.isPending ? 'Sending…' : 'Request redemption'}
          </Button>
        </CardFooter>
      </form>
    </Card>
  )
}
