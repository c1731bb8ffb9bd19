'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { cn } from '@/components/ui/cn'
import type { ErrorIssue } from '@/lib/errors/BaseError'
import { MINT_LIMITS } from '@/lib/mint/limits'
import { mintRequestSchema, type MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { ApiError } from './ApiError'
import { FieldError } from './FieldError'
import { postMintRequest } from './mintApi'
import {
  type BarDraft,
  checkAmount,
  draftToRequest,
  emptyDraft,
  type FieldErrors,
  fineMilliOzOf,
  formatOz,
  issuesToErrors,
  labelForPath,
  type MintDraft,
  newBarDraft,
  newIdempotencyKey,
  totalFine,
} from './mintFormModel'
import { sha256Hex } from './sha256Hex'

type Summary = { title: string; issues: ErrorIssue[] }
type BarField = 'serial' | 'refiner' | 'year' | 'grossOz' | 'fineness'

const barColumns: { field: BarField; label: string; placeholder: string; inputMode?: 'decimal' | 'numeric'; width: string }[] = [
  { field: 'serial', label: 'Serial', placeholder: 'AB123456', width: 'w-36' },
  { field: 'refiner', label: 'Refiner', placeholder: 'Valcambi SA', width: 'w-44' },
  { field: 'year', label: 'Year', placeholder: '2025', inputMode: 'numeric', width: 'w-24' },
  { field: 'grossOz', label: 'Gross oz', placeholder: '401.125', inputMode: 'decimal', width: 'w-28' },
  { field: 'fineness', label: 'Fineness', placeholder: '999.9', inputMode: 'decimal', width: 'w-24' },
]

/**
 * The mint request form (POST /api/gold/mint). Each bar's fine weight is computed as
 * you type with the server's own rule (bigint milli-ounces, rounded down), the total is
 * checked against the amount, the receipt document is hashed in the browser. The same
 * rules run before sending; the server's `issues` land on the fields they name. A retry
 * of the same submission reuses its Idempotency-Key, so it can never mint twice.
 */
export function MintRequestForm() {
  const router = useRouter()
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<MintDraft>(emptyDraft)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [summary, setSummary] = useState<Summary | null>(null)
  const [hashing, setHashing] = useState(false)
  const [documentName, setDocumentName] = useState<string | null>(null)
  const [focusBarId, setFocusBarId] = useState<string | null>(null)
  const attempt = useRef<{ key: string; body: string } | null>(null)
  const summaryRef = useRef<HTMLDivElement>(null)
  const ids = { to: useId(), amount: useId(), vault: useId(), receiptRef: useId(), file: useId(), sha: useId(), bars: useId() }

  const mutation = useMutation({
    mutationFn: ({ request, key }: { request: MintRequestInput; key: string }) => postMintRequest(request, key),
    onSuccess: (accepted) => {
      // the lists cached in this tab do not know the new order yet
      void queryClient.invalidateQueries({ queryKey: ['mint-orders'] })
      router.push(`/mints/${accepted.orderId}`)
    },
    onError: (error) => showServerError(error),
  })
  const sending = mutation.isPending || mutation.isSuccess

  const total = totalFine(draft.bars)
  const amountCheck = checkAmount(draft.amount, total)

  useEffect(() => {
    if (summary) summaryRef.current?.focus()
  }, [summary])

  useEffect(() => {
    if (focusBarId) document.getElementById(`${focusBarId}-serial`)?.focus()
  }, [focusBarId])

  function clearErrors(...paths: string[]) {
    setErrors((current) => {
      if (!paths.some((p) => p in current)) return current
      const next = { ...current }
      for (const p of paths) delete next[p]
      return next
    })
  }

  function setField(field: 'to' | 'amount' | 'vault' | 'receiptRef' | 'documentSha256', value: string) {
    setDraft((d) => ({ ...d, [field]: value }))
    clearErrors(field === 'to' || field === 'amount' ? field : `vaultProof.${field}`)
  }

  function setBarField(index: number, field: BarField, value: string) {
    setDraft((d) => ({ ...d, bars: d.bars.map((bar, i) => (i === index ? { ...bar, [field]: value } : bar)) }))
    const base = `vaultProof.bars.${index}`
    clearErrors(`${base}.${field}`, base, ...(field === 'grossOz' || field === 'fineness' ? [`${base}.fineOz`, 'amount'] : []))
  }

  function addBar() {
    const previous = draft.bars[draft.bars.length - 1]
    const bar = newBarDraft(previous ? { refiner: previous.refiner, year: previous.year, fineness: previous.fineness } : undefined)
    setDraft((d) => ({ ...d, bars: [...d.bars, bar] }))
    clearErrors('vaultProof.bars', 'amount')
    setFocusBarId(bar.id)
  }

  function removeBar(index: number) {
    setDraft((d) => ({ ...d, bars: d.bars.filter((_, i) => i !== index) }))
    // the rows below move up: their errors no longer point at the right row
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith('vaultProof.bars'))))
    clearErrors('amount')
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    if (!file) return
    setHashing(true)
    clearErrors('vaultProof.documentSha256')
    try {
      const hex = await sha256Hex(file)
      setDraft((d) => ({ ...d, documentSha256: hex }))
      setDocumentName(file.name)
    } catch (error) {
      setDocumentName(null)
      setErrors((e) => ({
        ...e,
        'vaultProof.documentSha256': error instanceof Error ? error.message : 'The document could not be read.',
      }))
    } finally {
      setHashing(false)
    }
  }

  function showIssues(title: string, issues: readonly ErrorIssue[]) {
    const { fields, other } = issuesToErrors(issues, draft.bars.length)
    setErrors(fields)
    setSummary({ title, issues: [...Object.entries(fields).map(([path, message]) => ({ path, message })), ...other] })
  }

  function showServerError(error: unknown) {
    if (!(error instanceof ApiError)) {
      setSummary({
        title: 'The server could not be reached. Your request may not have arrived; submitting again is safe, it will not mint twice.',
        issues: [],
      })
      return
    }
    if (error.issues.length > 0) {
      showIssues(
        error.code === 'validation_failed' ? 'The request was not accepted. Fix the fields below and submit again.' : error.message,
        error.issues,
      )
      return
    }
    if (error.status === 401) {
      setSummary({ title: 'Your session has ended. Sign in again in another tab, then submit again.', issues: [] })
      return
    }
    setSummary({
      title: error.status >= 500 ? `${error.message} Submitting again is safe: it will not mint twice.` : error.message,
      issues: [],
    })
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (sending || hashing) return
    const request = draftToRequest(draft)
    const checked = mintRequestSchema.safeParse(request)
    if (!checked.success) {
      showIssues(
        'Some fields need attention.',
        checked.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      )
      return
    }
    setSummary(null)
    setErrors({})
    // one key per submission; the same body submitted again (a retry) keeps its key
    const body = JSON.stringify(request)
    if (attempt.current?.body !== body) attempt.current = { key: newIdempotencyKey(), body }
    mutation.mutate({ request, key: attempt.current.key })
  }

  const describedBy = (errorId: string, path: string, extra?: string) =>
    [errors[path] ? errorId : null, extra].filter(Boolean).join(' ') || undefined

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Request a mint" className="space-y-6">
      {summary ? (
        <div ref={summaryRef} tabIndex={-1} className="outline-none">
          <Alert tone="error" title={summary.title}>
            {summary.issues.length > 0 ? (
              <ul className="list-disc space-y-0.5 pl-5">
                {summary.issues.map((issue) => (
                  <li key={`${issue.path}:${issue.message}`}>
                    <span className="font-medium">{labelForPath(issue.path)}</span>: {issue.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Alert>
        </div>
      ) : null}

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
              value={draft.to}
              onChange={(e) => setField('to', e.target.value)}
              placeholder="0x…"
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              aria-invalid={errors.to ? true : undefined}
              aria-describedby={describedBy(`${ids.to}-error`, 'to')}
            />
            <FieldError id={`${ids.to}-error`} message={errors.to} />
          </div>
          <div>
            <Label htmlFor={ids.amount}>Amount (fine oz)</Label>
            <div className="flex gap-2">
              <Input
                id={ids.amount}
                name="amount"
                value={draft.amount}
                onChange={(e) => setField('amount', e.target.value)}
                inputMode="decimal"
                placeholder="802.168"
                autoComplete="off"
                className="tabular text-right"
                aria-invalid={errors.amount ? true : undefined}
                aria-describedby={describedBy(`${ids.amount}-error`, 'amount', `${ids.amount}-check`)}
              />
              <Button
                variant="secondary"
                onClick={() => setField('amount', formatOz(total.milliOz))}
                disabled={total.incomplete > 0 || total.milliOz === 0n}
                title="Fill the amount with the total fine weight of the bars"
              >
                Use total
              </Button>
            </div>
            <FieldError id={`${ids.amount}-error`} message={errors.amount} />
            <AmountHint id={`${ids.amount}-check`} check={amountCheck} total={formatOz(total.milliOz)} />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Vault proof</CardTitle>
          <CardDescription>The vault receipt for these bars. The document itself stays on your computer: only its SHA-256 is sent.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={ids.vault}>Vault</Label>
            <Input
              id={ids.vault}
              name="vault"
              value={draft.vault}
              onChange={(e) => setField('vault', e.target.value)}
              placeholder="LDN-1"
              aria-invalid={errors['vaultProof.vault'] ? true : undefined}
              aria-describedby={describedBy(`${ids.vault}-error`, 'vaultProof.vault')}
            />
            <FieldError id={`${ids.vault}-error`} message={errors['vaultProof.vault']} />
          </div>
          <div>
            <Label htmlFor={ids.receiptRef}>Vault receipt reference</Label>
            <Input
              id={ids.receiptRef}
              name="receiptRef"
              value={draft.receiptRef}
              onChange={(e) => setField('receiptRef', e.target.value)}
              placeholder="VR-2026-000123"
              aria-invalid={errors['vaultProof.receiptRef'] ? true : undefined}
              aria-describedby={describedBy(`${ids.receiptRef}-error`, 'vaultProof.receiptRef')}
            />
            <FieldError id={`${ids.receiptRef}-error`} message={errors['vaultProof.receiptRef']} />
          </div>
          <div>
            <Label htmlFor={ids.file}>Receipt document</Label>
            <input
              id={ids.file}
              type="file"
              onChange={onFile}
              disabled={hashing}
              aria-describedby={`${ids.file}-hint`}
              className="block w-full text-sm text-stone-700 file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-stone-800 hover:file:bg-stone-100"
            />
            <p id={`${ids.file}-hint`} className="mt-1 text-xs text-stone-500" aria-live="polite">
              {hashing ? 'Computing SHA-256…' : documentName ? `SHA-256 of ${documentName} filled in.` : 'Choose the PDF or scan; its SHA-256 is computed here.'}
            </p>
          </div>
          <div>
            <Label htmlFor={ids.sha}>Receipt document SHA-256</Label>
            <Input
              id={ids.sha}
              name="documentSha256"
              value={draft.documentSha256}
              onChange={(e) => {
                setDocumentName(null)
                setField('documentSha256', e.target.value)
              }}
              placeholder="64 hex characters, or choose the file"
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
              aria-invalid={errors['vaultProof.documentSha256'] ? true : undefined}
              aria-describedby={describedBy(`${ids.sha}-error`, 'vaultProof.documentSha256')}
            />
            <FieldError id={`${ids.sha}-error`} message={errors['vaultProof.documentSha256']} />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle id={ids.bars}>Bars</CardTitle>
          <CardDescription>
            Fine weight = gross × fineness / 1000, rounded down to 0.001 oz (LBMA). Up to {MINT_LIMITS.maxBars} bars; each bar can back
            one order only.
          </CardDescription>
        </CardHeader>
        <CardContent className="overflow-x-auto p-0">
          <table className="w-full min-w-[52rem] text-sm" aria-labelledby={ids.bars}>
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
              {draft.bars.map((bar, index) => (
                <BarRow
                  key={bar.id}
                  bar={bar}
                  index={index}
                  errors={errors}
                  canRemove={draft.bars.length > 1}
                  onChange={(field, value) => setBarField(index, field, value)}
                  onRemove={() => removeBar(index)}
                />
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t border-stone-200 bg-stone-50">
                <td colSpan={6} className="px-3 py-3">
                  <Button variant="secondary" size="sm" onClick={addBar} disabled={draft.bars.length >= MINT_LIMITS.maxBars}>
                    + Add bar
                  </Button>
                  {errors['vaultProof.bars'] ? (
                    <span className="ml-3 text-xs text-red-700">{errors['vaultProof.bars']}</span>
                  ) : null}
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
        <CardFooter className="justify-between">
          <p className="text-xs text-stone-500">
            {draft.bars.length} bar{draft.bars.length === 1 ? '' : 's'} · total {formatOz(total.milliOz)} fine oz
          </p>
          <Button type="submit" disabled={sending || hashing} aria-disabled={sending || hashing}>
            {sending ? 'Sending…' : 'Request mint'}
          </Button>
        </CardFooter>
      </Card>
    </form>
  )
}

function AmountHint({ id, check, total }: { id: string; check: ReturnType<typeof checkAmount>; total: string }) {
  const text: Record<typeof check, { message: string; tone: string }> = {
    empty: { message: `Total of the bars: ${total} oz.`, tone: 'text-stone-500' },
    invalid: { message: 'Digits and at most 3 decimals, e.g. 802.168.', tone: 'text-amber-700' },
    incomplete: { message: 'Complete the bars to check the amount against their total.', tone: 'text-stone-500' },
    matches: { message: `Matches the total fine weight of the bars (${total} oz).`, tone: 'text-emerald-700' },
    differs: { message: `Differs from the total fine weight of the bars: ${total} oz.`, tone: 'text-amber-700' },
  }
  return (
    <p id={id} className={cn('mt-1 text-xs', text[check].tone)} aria-live="polite">
      {text[check].message}
    </p>
  )
}

function BarRow({
  bar,
  index,
  errors,
  canRemove,
  onChange,
  onRemove,
}: {
  bar: BarDraft
  index: number
  errors: FieldErrors
  canRemove: boolean
  onChange: (field: BarField, value: string) => void
  onRemove: () => void
}) {
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
