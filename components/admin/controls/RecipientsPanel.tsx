'use client'

import { type FormEvent, useState } from 'react'
import { AdminAction } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { useConfirmedChange } from '@/components/admin/useConfirmedChange'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import type { ApiAllowedRecipient } from '@/lib/controls/apiTypes'
import { addRecipientBodySchema } from '@/lib/controls/schemas'
import { ControlField } from './ControlField'
import { addRecipient, removeRecipient } from './controlsApi'
import { isListed } from './isListed'

/** A change waiting for its confirmation. */
type Pending = { kind: 'add'; address: string; label: string } | { kind: 'remove'; recipient: ApiAllowedRecipient }

/**
 * The recipient allowlist: mints go only to these addresses. Ask to add one with a label,
 * or to remove one, each behind a confirmation; the list changes once another admin
 * confirms the change (/admin/changes). A removed address's orders that are not signed
 * yet are refused by the worker before signing.
 */
export function RecipientsPanel({ initialRecipients }: { initialRecipients: ApiAllowedRecipient[] }) {
  const recipients = initialRecipients
  const [address, setAddress] = useState('')
  const [label, setLabel] = useState('')
  const [issues, setIssues] = useState<Record<string, string>>({})
  const change = useConfirmedChange<Pending>({
    failure: 'The change failed.',
    apply: async (p) => {
      if (p.kind === 'add') {
        await addRecipient({ address: p.address, label: p.label })
        setAddress('')
        setLabel('')
        return `Adding ${p.address} (${p.label}) awaits a second admin: it applies once another admin confirms it on the Changes page.`
      }
      await removeRecipient(p.recipient.address)
      return `Removing ${p.recipient.address} (${p.recipient.label}) awaits a second admin: it applies once another admin confirms it on the Changes page.`
    },
  })
  const { pending, setPending, busy, message } = change

  function review(e: FormEvent) {
    e.preventDefault()
    change.startAttempt()
    const parsed = addRecipientBodySchema.safeParse({ address: address.trim(), label })
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])))
      return
    }
    // a listed address is refused here, before a dialog asks to confirm it
    if (isListed(recipients, parsed.data.address)) {
      setIssues({ address: 'This address is on the allowlist already.' })
      return
    }
    setIssues({})
    setPending({ kind: 'add', ...parsed.data })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle id="recipients-title">Recipient allowlist</CardTitle>
        <CardDescription>
          Mints go only to these addresses: intake, approval and the worker refuse any other. A change applies once a
          second admin confirms it; every step is audited.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {message ? <Alert tone={message.tone} title={message.text} className="mb-4" /> : null}
        <AdminAction>
          <form onSubmit={review} noValidate className="grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
            <ControlField
              id="recipient-address"
              label="Address"
              value={address}
              onChange={setAddress}
              issue={issues.address}
              placeholder="0x…"
              className="font-mono"
            />
            <ControlField
              id="recipient-label"
              label="Label"
              value={label}
              onChange={setLabel}
              issue={issues.label}
              placeholder="Customer name"
            />
            <Button type="submit" disabled={busy}>
              Add recipient
            </Button>
          </form>
        </AdminAction>
      </CardContent>
      <CardContent className="p-0">
        <ScrollX label="Recipient allowlist">
          <table className="w-full min-w-[40rem] text-sm" aria-labelledby="recipients-title">
            <TableHead>
              {['Label', 'Address', 'Added', ''].map((c) => (
                <ColumnHeader key={c} className="px-3 py-2">
                  {c}
                </ColumnHeader>
              ))}
            </TableHead>
            <tbody>
              {recipients.length === 0 ? (
                <tr>
                  <td colSpan={4} className="px-3 py-4 text-stone-500">
                    No recipients: every mint is refused until one is added.
                  </td>
                </tr>
              ) : null}
              {recipients.map((r) => (
                <tr key={r.address} className="border-t border-stone-100">
                  <td className="px-3 py-2 font-medium">{r.label}</td>
                  <td className="px-3 py-2 font-mono text-xs">{r.address}</td>
                  <td className="px-3 py-2 text-stone-600">
                    {formatUtc(r.addedAt)} {r.addedBy ? `by ${r.addedBy}` : '(seeded)'}
                  </td>
                  <td className="px-3 py-2 text-right">
                    <AdminAction>
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={busy}
                        aria-label={`Remove ${r.label} (${r.address})`}
                        onClick={() => setPending({ kind: 'remove', recipient: r })}
                      >
                        Remove
                      </Button>
                    </AdminAction>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </CardContent>
      <ConfirmDialog
        title={
          pending?.kind === 'add'
            ? `Allow mints to ${pending.label}?`
            : pending
              ? `Remove ${pending.recipient.label} from the allowlist?`
              : ''
        }
        confirmLabel={pending?.kind === 'add' ? 'Ask to add' : 'Ask to remove'}
        dismissLabel="Not now"
        tone={pending?.kind === 'add' ? 'primary' : 'danger'}
        {...change.dialog}
      >
        {pending?.kind === 'add' ? (
          <p>
            <span className="font-mono text-xs">{pending.address}</span> may receive mints once another admin confirms.
          </p>
        ) : pending ? (
          <p>
            Once another admin confirms, <span className="font-mono text-xs">{pending.recipient.address}</span> receives
            no more mints: its orders not yet signed are refused by the worker.
          </p>
        ) : null}
      </ConfirmDialog>
    </Card>
  )
}
