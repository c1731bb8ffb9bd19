'use client'

import { useState } from 'react'
import { AdminAction } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { useConfirmedChange } from '@/components/admin/useConfirmedChange'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import type { ApiWebhookEndpoint } from '@/lib/web/notifications/apiTypes'
import { DeliveriesPanel } from './DeliveriesPanel'
import { SubscribeForm } from './SubscribeForm'
import { deleteWebhook, fetchWebhookEndpoints } from './webhooksApi'

/**
 * /admin/webhooks: subscribe an endpoint (the secret shown once), the subscriptions with
 * their delivery counts, one endpoint's deliveries with their attempts and a redeliver
 * button, and unsubscribe behind a confirmation. Every change is audited.
 */
export function WebhooksAdmin({ initialEndpoints }: { initialEndpoints: ApiWebhookEndpoint[] }) {
  const [endpoints, setEndpoints] = useState(initialEndpoints)
  const [selected, setSelected] = useState<string | null>(initialEndpoints[0]?.id ?? null)
  const change = useConfirmedChange<ApiWebhookEndpoint>({
    failure: 'The endpoint could not be removed.',
    apply: async (endpoint) => {
      await deleteWebhook(endpoint.id)
      setEndpoints((all) => all.filter((e) => e.id !== endpoint.id))
      setSelected((s) => (s === endpoint.id ? null : s))
      return `${endpoint.url} gets no more deliveries.`
    },
  })
  const { pending, setPending, busy, message } = change
  const current = endpoints.find((e) => e.id === selected)

  async function refresh(select?: string) {
    setEndpoints(await fetchWebhookEndpoints())
    if (select) setSelected(select)
  }

  return (
    <div className="grid gap-6">
      <h1 className="text-xl font-semibold">Webhooks</h1>
      <AdminAction>
        <Card>
          <CardHeader>
            <CardTitle>Subscribe an endpoint</CardTitle>
            <CardDescription>
              Each event is POSTed as JSON following Standard Webhooks (webhook-id to dedupe on, webhook-timestamp,
              webhook-signature), so any Standard Webhooks library verifies it; retried with backoff until a 2xx.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <SubscribeForm onSubscribed={(created) => void refresh(created.id)} />
          </CardContent>
        </Card>
      </AdminAction>
      <Card>
        <CardHeader>
          <CardTitle id="endpoints-title">Endpoints</CardTitle>
        </CardHeader>
        <CardContent className="p-0">
          <ScrollX label="Webhook endpoints">
            {message ? <Alert tone={message.tone} title={message.text} className="m-4" /> : null}
            <table className="w-full min-w-[44rem] text-sm" aria-labelledby="endpoints-title">
              <TableHead>
                {['URL', 'Events', 'Delivered', 'Pending', 'Dead', ''].map((c) => (
                  <ColumnHeader key={c} className="px-3 py-2">
                    {c}
                  </ColumnHeader>
                ))}
              </TableHead>
              <tbody>
                {endpoints.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="px-3 py-4 text-stone-500">
                      No endpoints: subscribe one above.
                    </td>
                  </tr>
                ) : null}
                {endpoints.map((e) => (
                  <tr
                    key={e.id}
                    className={
                      e.id === selected ? 'border-t border-stone-100 bg-amber-50' : 'border-t border-stone-100'
                    }
                  >
                    <td className="px-3 py-2 font-mono text-xs">{e.url}</td>
                    <td className="px-3 py-2 font-mono text-[11px]">{e.events.join(', ')}</td>
                    <td className="px-3 py-2">{e.counts.delivered}</td>
                    <td className="px-3 py-2">{e.counts.pending}</td>
                    <td className="px-3 py-2">{e.counts.dead}</td>
                    <td className="space-x-2 whitespace-nowrap px-3 py-2 text-right">
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => setSelected(e.id)}
                        aria-label={`Deliveries of ${e.url}`}
                      >
                        Deliveries
                      </Button>
                      <AdminAction>
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={busy}
                          onClick={() => setPending(e)}
                          aria-label={`Remove ${e.url}`}
                        >
                          Remove
                        </Button>
                      </AdminAction>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {current ? (
              <div className="px-3 pb-4">
                <DeliveriesPanel key={current.id} endpoint={current} />
              </div>
            ) : null}
          </ScrollX>
        </CardContent>
      </Card>
      <ConfirmDialog
        title={pending ? `Remove ${pending.url}?` : ''}
        confirmLabel="Remove endpoint"
        dismissLabel="Not now"
        tone="danger"
        {...change.dialog}
      >
        <p>It gets no new deliveries; pending ones are cancelled. Its delivery history stays.</p>
      </ConfirmDialog>
    </div>
  )
}
