'use client'

import { type FormEvent, useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { CardFooter } from '@/components/ui/Card'
import { BarPicker } from '@/components/vault/BarPicker'
import { addPickedBar, formatOz, type PickedBar, pickedTotals, removePickedBar } from '@/components/vault/pickedBars'
import { BarsTable } from './BarsTable'
import { IssueSummary } from './IssueSummary'
import { amountOf, emptyDraft, type FieldErrors, type MintDraft, shiftBarErrors } from './mintFormModel'
import { RecipientFields } from './RecipientFields'
import { useReceiptDocument } from './useReceiptDocument'
import { useSubmitMintRequest } from './useSubmitMintRequest'
import { type VaultProofField, VaultProofFields } from './VaultProofFields'

/**
 * The mint request form (POST /api/gold/mint): it holds the draft and its field errors
 * and composes the parts. Bars are picked from the vault's inventory, never typed: the
 * amount is their total fine weight, the request names each by serial + refiner and the
 * server takes the weights from the bar list. The receipt document is hashed in the
 * browser. The shared rules run before sending; the server's `issues` land on the
 * fields and bars they name.
 */
export function MintRequestForm() {
  const [draft, setDraft] = useState<MintDraft>(emptyDraft)
  const [errors, setErrors] = useState<FieldErrors>({})
  const searchId = useId()
  const { submit, sending, summary } = useSubmitMintRequest({ barCount: draft.bars.length, setErrors })
  const receipt = useReceiptDocument({
    onStart: () => clearErrors('vaultProof.documentSha256'),
    onHashed: (hex) => setDraft((d) => ({ ...d, documentSha256: hex })),
    onError: (message) => setErrors((e) => ({ ...e, 'vaultProof.documentSha256': message })),
  })
  const totals = pickedTotals(draft.bars)

  function clearErrors(...paths: string[]) {
    setErrors((current) => {
      if (!paths.some((p) => p in current)) return current
      const next = { ...current }
      for (const p of paths) delete next[p]
      return next
    })
  }

  function setField(field: 'to' | VaultProofField, value: string) {
    setDraft((d) => ({ ...d, [field]: value }))
    clearErrors(field === 'to' ? field : `vaultProof.${field}`)
  }

  function addBar(bar: PickedBar) {
    setDraft((d) => ({ ...d, bars: addPickedBar(d.bars, bar) }))
    clearErrors('vaultProof.bars', 'amount')
  }

  function removeBar(index: number) {
    setDraft((d) => ({ ...d, bars: removePickedBar(d.bars, index) }))
    // the bars below move up: their errors move with them
    setErrors((current) => shiftBarErrors(current, index))
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (sending || receipt.hashing) return
    submit(draft)
  }

  const busy = sending || receipt.hashing
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Request a mint" className="space-y-6">
      <IssueSummary summary={summary} />
      <RecipientFields
        to={draft.to}
        amount={amountOf(draft.bars)}
        barCount={draft.bars.length}
        errors={errors}
        onChange={setField}
      />
      <VaultProofFields
        vault={draft.vault}
        receiptRef={draft.receiptRef}
        documentSha256={draft.documentSha256}
        errors={errors}
        hashing={receipt.hashing}
        documentName={receipt.documentName}
        onChange={setField}
        onFile={(file) => void receipt.hashFile(file)}
        onShaTyped={receipt.forgetDocument}
      />
      <BarPicker vault={draft.vault} picked={draft.bars} onAdd={addBar} searchId={searchId} />
      <BarsTable bars={draft.bars} errors={errors} onRemove={removeBar} fallbackFocusId={searchId}>
        <CardFooter className="justify-between">
          <p className="text-xs text-stone-500">
            {totals.count} bar{totals.count === 1 ? '' : 's'} · {formatOz(totals.milliOz)} fine oz to mint
          </p>
          <Button type="submit" disabled={busy} aria-disabled={busy}>
            {sending ? 'Sending…' : 'Request mint'}
          </Button>
        </CardFooter>
      </BarsTable>
    </form>
  )
}
