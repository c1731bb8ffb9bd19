'use client'

import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ControlField } from '@/components/admin/controls/ControlField'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Label } from '@/components/ui/Label'
import { ApiError } from '@/lib/web/errors/api'
import { type ComplianceRequest, requestCompliance } from './complianceApi'
import { parseAddressList } from './parseAddressList'

const ACTIONS: { value: ComplianceRequest['action']; label: string }[] = [
  { value: 'freeze', label: 'Freeze addresses' },
  { value: 'unfreeze', label: 'Unfreeze addresses' },
  { value: 'pause', label: 'Pause the token' },
  { value: 'unpause', label: 'Unpause the token' },
]

/**
 * Asks for a freeze or unfreeze of one or many addresses, or a pause or unpause of the token, with a reason (admins
 * only): it awaits an approver's signature, then the worker sends it to GoldMinter.
 */
export function ComplianceRequestForm() {
  const router = useRouter()
  const canChange = useCanChange()
  const [action, setAction] = useState<ComplianceRequest['action']>('freeze')
  const [addresses, setAddresses] = useState('')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const [issues, setIssues] = useState<Record<string, string>>({})
  if (!canChange) return null
  const needsAddresses = action === 'freeze' || action === 'unfreeze'

  const submit = async () => {
    setBusy(true)
    setMessage(null)
    setIssues({})
    try {
      const list = needsAddresses ? parseAddressList(addresses) : []
      const accepted = await requestCompliance({ action, addresses: list, reason: reason.trim() })
      const count = 'operations' in accepted ? accepted.operations.length : 1
      setAddresses('')
      setReason('')
      setMessage({
        tone: 'success',
        text: `Asked for: ${count === 1 ? 'one operation' : `${count} operations`}, awaiting an approver's signature.`,
      })
      router.refresh()
    } catch (error) {
      const fields: Record<string, string> = {}
      if (error instanceof ApiError)
        for (const i of error.issues) fields[i.path.startsWith('address') ? 'addresses' : i.path] = i.message
      setIssues(fields)
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'Nothing was asked for.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Ask for a compliance operation</CardTitle>
        <CardDescription>
          A freeze stops an address from sending or receiving the token; a pause stops every transfer, mint and burn. An
          approver other than you signs it with their key before the worker sends it to the contract.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {message ? <Alert tone={message.tone} title={message.text} /> : null}
        <div>
          <Label htmlFor="compliance-action">Operation</Label>
          <select
            id="compliance-action"
            value={action}
            disabled={busy}
            onChange={(e) => {
              setAction(e.target.value as ComplianceRequest['action'])
              setIssues({})
            }}
            className="h-9 w-full rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            {ACTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        {needsAddresses ? (
          <div>
            <Label htmlFor="compliance-addresses">Addresses (one per line, up to 100)</Label>
            <textarea
              id="compliance-addresses"
              value={addresses}
              disabled={busy}
              rows={4}
              onChange={(e) => setAddresses(e.target.value)}
              aria-invalid={issues.addresses ? true : undefined}
              aria-describedby={issues.addresses ? 'compliance-addresses-issue' : undefined}
              className="w-full rounded-md border border-stone-300 bg-white px-2 py-1 font-mono text-sm"
            />
            {issues.addresses ? (
              <p id="compliance-addresses-issue" className="mt-1 text-xs text-red-700">
                {issues.addresses}
              </p>
            ) : null}
          </div>
        ) : null}
        <ControlField id="compliance-reason" label="Reason" value={reason} onChange={setReason} issue={issues.reason} />
        <Button disabled={busy} onClick={submit}>
          Ask for approval
        </Button>
      </CardContent>
    </Card>
  )
}
