'use client'

import { type FormEvent, useState } from 'react'
import { ControlField } from '@/components/admin/controls/ControlField'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { ApiError } from '@/lib/web/errors/api'
import type { ApiCreatedWebhook } from '@/lib/web/notifications/apiTypes'
import { NOTIFICATION_EVENT_TYPES } from '@/lib/web/notifications/eventTypes'
import { subscribeWebhook } from './webhooksApi'

/**
 * Subscribe an endpoint: its URL and the events it wants. The server checks the target
 * (https and a public address in production) and answers with the signing secret, shown
 * here once: the page cannot show it again.
 */
export function SubscribeForm({ onSubscribed }: { onSubscribed: (created: ApiCreatedWebhook) => void }) {
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>(['mint.confirmed', 'mint.failed'])
  const [issues, setIssues] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<ApiCreatedWebhook | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    setIssues({})
    try {
      const made = await subscribeWebhook({ url: url.trim(), events })
      setCreated(made)
      setUrl('')
      onSubscribed(made)
    } catch (thrown) {
      if (thrown instanceof ApiError && thrown.issues.length > 0)
        setIssues(Object.fromEntries(thrown.issues.map((i) => [i.path.split('.')[0] ?? i.path, i.message])))
      setError(thrown instanceof Error ? thrown.message : 'The subscription failed.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div>
      {created ? (
        <Alert tone="success" title="Subscribed. Copy the signing secret now: it is shown only once." className="mb-4">
          <p>
            Endpoint <span className="font-mono text-xs">{created.url}</span>
          </p>
          <p className="mt-2">
            Secret:{' '}
            <code data-testid="webhook-secret" className="select-all break-all rounded bg-white px-1 font-mono text-xs">
              {created.secret}
            </code>
          </p>
          <p className="mt-2 text-xs">
            Verify each delivery with a Standard Webhooks library and this secret: it checks the webhook-signature
            header over the raw body.
          </p>
        </Alert>
      ) : null}
      {error ? <Alert tone="error" title={error} className="mb-4" /> : null}
      <form onSubmit={submit} noValidate className="grid gap-4">
        <ControlField
          id="webhook-url"
          label="Endpoint URL"
          value={url}
          onChange={setUrl}
          issue={issues.url}
          placeholder="https://ledger.example.com/hooks/mintdesk"
          className="font-mono"
        />
        <fieldset aria-describedby={issues.events ? 'webhook-events-issue' : undefined}>
          <legend className="text-sm font-medium text-stone-700">Events</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {NOTIFICATION_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={events.includes(type)}
                  onChange={(e) =>
                    setEvents((all) => (e.target.checked ? [...all, type] : all.filter((x) => x !== type)))
                  }
                />
                <span className="font-mono text-xs">{type}</span>
              </label>
            ))}
          </div>
          {issues.events ? (
            <p id="webhook-events-issue" className="mt-1 text-xs text-red-700">
              {issues.events}
            </p>
          ) : null}
        </fieldset>
        <div>
          <Button type="submit" disabled={busy}>
            Subscribe
          </Button>
        </div>
      </form>
    </div>
  )
}
