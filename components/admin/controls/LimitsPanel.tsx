'use client'

import { type FormEvent, useState } from 'react'
import { AdminAction } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { useConfirmedChange } from '@/components/admin/useConfirmedChange'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiMintLimits } from '@/lib/controls/apiTypes'
import { setMintLimitsBodySchema } from '@/lib/controls/schemas'
import { ControlField } from './ControlField'
import { putLimits } from './controlsApi'

/** A limit is a decimal; an empty one is unlimited. */
const limitInput = { inputMode: 'decimal', placeholder: 'unlimited' } as const

type Limits = { maxOrderOz: string | null; dailyCapOz: string | null }

/**
 * The per-order limit and the rolling 24 h cap: shown, and a change asked for behind a
 * confirmation that says what changes; it applies once another admin confirms it
 * (/admin/changes). An empty field is "unlimited" (refused by production workers at
 * start). Lowering a limit does not cancel orders: the worker refuses those above it
 * before signing.
 */
export function LimitsPanel({ initialLimits }: { initialLimits: ApiMintLimits }) {
  const limits = initialLimits
  const [maxOrder, setMaxOrder] = useState(initialLimits.maxOrderOz ?? '')
  const [dailyCap, setDailyCap] = useState(initialLimits.dailyCapOz ?? '')
  const [issues, setIssues] = useState<Record<string, string>>({})
  const change = useConfirmedChange<Limits>({
    failure: 'Saving the limits failed.',
    apply: async (p) => {
      await putLimits(p)
      return `The new limits (per order ${show(p.maxOrderOz)}, rolling 24 h ${show(p.dailyCapOz)}) await a second admin: they apply once another admin confirms them on the Changes page.`
    },
  })
  const { pending, busy, message } = change

  function review(e: FormEvent) {
    e.preventDefault()
    change.startAttempt()
    const body = {
      maxOrderOz: maxOrder.trim() === '' ? null : maxOrder.trim(),
      dailyCapOz: dailyCap.trim() === '' ? null : dailyCap.trim(),
    }
    const parsed = setMintLimitsBodySchema.safeParse(body)
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])))
      return
    }
    setIssues({})
    change.setPending(parsed.data)
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Mint limits</CardTitle>
        <CardDescription>
          Checked at intake, at approval and by the worker before it signs. The rolling 24 h cap counts orders in
          flight, mined in the last 24 hours or requested in the last 24 hours and awaiting approval: {limits.last24hOz}{' '}
          oz now. A change applies once a second admin confirms it; every step is audited.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {message ? <Alert tone={message.tone} title={message.text} className="mb-4" /> : null}
        {limits.maxOrderOz === null || limits.dailyCapOz === null ? (
          <Alert
            tone="warning"
            title="A limit is unset (unlimited): production workers refuse to start, or to sign, until both are set."
            className="mb-4"
          />
        ) : null}
        <AdminAction>
          <form onSubmit={review} noValidate className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <ControlField
              id="max-order"
              label="Per-order limit (fine oz)"
              value={maxOrder}
              onChange={setMaxOrder}
              issue={issues.maxOrderOz}
              {...limitInput}
            />
            <ControlField
              id="daily-cap"
              label="Rolling 24 h cap (fine oz)"
              value={dailyCap}
              onChange={setDailyCap}
              issue={issues.dailyCapOz}
              {...limitInput}
            />
            <Button type="submit" disabled={busy}>
              Review limits
            </Button>
          </form>
        </AdminAction>
        <p className="mt-2 text-xs text-stone-500">
          Last changed{' '}
          {limits.updatedAt ? `${formatUtc(limits.updatedAt)} by ${limits.updatedBy ?? 'the deploy'}` : 'never'}.
        </p>
      </CardContent>
      <ConfirmDialog
        title="Change the mint limits?"
        confirmLabel="Ask for these limits"
        dismissLabel="Not now"
        tone="primary"
        {...change.dialog}
      >
        <p>
          Per order: {show(limits.maxOrderOz)} → <strong>{show(pending?.maxOrderOz ?? null)}</strong>
        </p>
        <p>
          Rolling 24 h: {show(limits.dailyCapOz)} → <strong>{show(pending?.dailyCapOz ?? null)}</strong>
        </p>
        <p>
          They apply once another admin confirms. Orders not yet signed that are above a lowered limit will then be
          refused by the worker.
        </p>
      </ConfirmDialog>
    </Card>
  )
}

function show(oz: string | null): string {
  return oz === null ? 'unlimited' : `${oz} oz`
}
