'use client'

import { type FormEvent, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { CardFooter } from '@/components/ui/Card'
import type { BarField } from './BarRow'
import { BarsTable } from './BarsTable'
import { IssueSummary } from './IssueSummary'
import { emptyDraft, type FieldErrors, formatOz, type MintDraft, newBarDraft, totalFine } from './mintFormModel'
import { type RecipientField, RecipientFields } from './RecipientFields'
import { useReceiptDocument } from './useReceiptDocument'
import { useSubmitMintRequest } from './useSubmitMintRequest'
import { type VaultProofField, VaultProofFields } from './VaultProofFields'

/**
 * The mint request form (POST /api/gold/mint): it holds the draft and its field errors
 * and composes the parts. Each bar's fine weight is computed as you type with the
 * server's own rule (bigint milli-ounces, rounded down), the total is checked against
 * the amount, the receipt document is hashed in the browser. The same rules run before
 * sending; the server's `issues` land on the fields they name.
 */
export function MintRequestForm() {
  const [draft, setDraft] = useState<MintDraft>(emptyDraft)
  const [errors, setErrors] = useState<FieldErrors>({})
  const { submit, sending, summary } = useSubmitMintRequest({ barCount: draft.bars.length, setErrors })
  const receipt = useReceiptDocument({
    onStart: () => clearErrors('vaultProof.documentSha256'),
    onHashed: (hex) => setDraft((d) => ({ ...d, documentSha256: hex })),
    onError: (message) => setErrors((e) => ({ ...e, 'vaultProof.documentSha256': message })),
  })
  const total = totalFine(draft.bars)

  function clearErrors(...paths: string[]) {
    setErrors((current) => {
      if (!paths.some((p) => p in current)) return current
      const next = { ...current }
      for (const p of paths) delete next[p]
      return next
    })
  }

  function setField(field: RecipientField | VaultProofField, value: string) {
    setDraft((d) => ({ ...d, [field]: value }))
    clearErrors(field === 'to' || field === 'amount' ? field : `vaultProof.${field}`)
  }

  function setBarField(index: number, field: BarField, value: string) {
    setDraft((d) => ({ ...d, bars: d.bars.map((bar, i) => (i === index ? { ...bar, [field]: value } : bar)) }))
    const base = `vaultProof.bars.${index}`
    clearErrors(`${base}.${field}`, base, ...(field === 'grossOz' || field === 'fineness' ? [`${base}.fineOz`, 'amount'] : []))
  }

  function addBar(): string {
    const previous = draft.bars[draft.bars.length - 1]
    const bar = newBarDraft(previous ? { refiner: previous.refiner, year: previous.year, fineness: previous.fineness } : undefined)
    setDraft((d) => ({ ...d, bars: [...d.bars, bar] }))
    clearErrors('vaultProof.bars', 'amount')
    return bar.id
  }

  function removeBar(index: number) {
    setDraft((d) => ({ ...d, bars: d.bars.filter((_, i) => i !== index) }))
    // the rows below move up: their errors no longer point at the right row
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith('vaultProof.bars'))))
    clearErrors('amount')
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
      <RecipientFields to={draft.to} amount={draft.amount} total={total} errors={errors} onChange={setField} />
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
      <BarsTable bars={draft.bars} total={total} errors={errors} onChange={setBarField} onAdd={addBar} onRemove={removeBar}>
        <CardFooter className="justify-between">
          <p className="text-xs text-stone-500">
            {draft.bars.length} bar{draft.bars.length === 1 ? '' : 's'} · total {formatOz(total.milliOz)} fine oz
          </p>
          <Button type="submit" disabled={busy} aria-disabled={busy}>
            {sending ? 'Sending…' : 'Request mint'}
          </Button>
        </CardFooter>
      </BarsTable>
    </form>
  )
}
