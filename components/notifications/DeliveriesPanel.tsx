'use client'

import { useCallback, useEffect, useState } from 'react'
import { AdminAction } from '@/components/admin/AdminAccess'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import type { ApiWebhookDelivery, ApiWebhookEndpoint } from '@/lib/web/notifications/apiTypes'
import { fetchWebhookDeliveries, redeliver } from './webhooksApi'

const tone = { delivered: 'success', pending: 'warning', dead: 'danger', cancelled: 'neutral' } as const

/**
 * One endpoint's deliveries, newest first, each with its attempts
 * (status, latency, the answer's first bytes) and a redeliver button.
 */
export function DeliveriesPanel({ endpoint }: { endpoint: ApiWebhookEndpoint }) {
  const [items, setItems] = useState<ApiWebhookDelivery[] | null>(null)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const [busy, setBusy] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      setItems(await fetchWebhookDeliveries(endpoint.id))
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The deliveries could not be read.' })
    }
  }, [endpoint.id])

  useEffect(() => {
    void load()
    const timer = setInterval(() => void load(), 5_000)
    return () => clearInterval(timer)
  }, [load])

  async function again(d: ApiWebhookDelivery) {
    setBusy(d.id)
    try {
      await redeliver(d.id)
      setMessage({ tone: 'success', text: `${d.eventType} (${d.eventId}) will be sent again.` })
      await load()
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The redelivery failed.' })
    } finally {
      setBusy(null)
    }
  }

  return (
    <section aria-labelledby="deliveries-title" className="mt-6">
      <h2 id="deliveries-title" className="text-base font-semibold">
        Deliveries to <span className="font-mono text-sm">{endpoint.url}</span>
      </h2>
      {message ? <Alert tone={message.tone} title={message.text} className="my-3" /> : null}
      <ScrollX label="Deliveries">
        <table className="mt-2 w-full min-w-[48rem] text-sm" aria-labelledby="deliveries-title">
          <TableHead>
            {['Event', 'Order', 'Status', 'Attempts', ''].map((c) => (
              <ColumnHeader key={c} className="px-3 py-2">
                {c}
              </ColumnHeader>
            ))}
          </TableHead>
          <tbody>
            {items === null ? (
              <tr>
                <td colSpan={5} className="px-3 py-4 text-stone-500">
                  Loading…
                </td>
              </tr>
            ) : items.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-3 py-4 text-stone-500">
                  No deliveries yet: one is made for each subscribed event.
                </td>
              </tr>
            ) : null}
            {items?.map((d) => (
              <tr key={d.id} className="border-t border-stone-100 align-top" data-testid="delivery-row">
                <td className="px-3 py-2">
                  <div className="font-mono text-xs">{d.eventType}</div>
                  <div className="font-mono text-[11px] text-stone-500">{d.eventId}</div>
                </td>
                <td className="px-3 py-2 font-mono text-xs">
                  {d.orderId ? (
                    <a className="underline" href={`/mints/${d.orderId}`}>
                      {d.orderId.slice(0, 8)}
                    </a>
                  ) : (
                    '-'
                  )}
                </td>
                <td className="px-3 py-2">
                  <Badge tone={tone[d.status]}>{d.status}</Badge>
                </td>
                <td className="px-3 py-2">
                  <ol className="space-y-1">
                    {d.attemptLog.map((a) => (
                      <li key={a.attempt} className="text-xs">
                        #{a.attempt} {a.statusCode ?? 'no answer'} in {a.durationMs} ms
                        {a.error ? <span className="text-red-700"> ({a.error})</span> : null}
                        {a.responseExcerpt ? (
                          <span className="block truncate font-mono text-[11px] text-stone-500">
                            {a.responseExcerpt.slice(0, 120)}
                          </span>
                        ) : null}
                      </li>
                    ))}
                  </ol>
                </td>
                <td className="px-3 py-2 text-right">
                  <AdminAction>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={busy !== null || d.status === 'cancelled'}
                      onClick={() => void again(d)}
                      aria-label={`Redeliver ${d.eventId}`}
                    >
                      Redeliver
                    </Button>
                  </AdminAction>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
    </section>
  )
}
