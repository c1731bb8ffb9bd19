import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { AdminDashboard } from '@/components/admin/AdminDashboard'
import { apiMetricsToMetrics, metricsQueryKey } from '@/components/admin/adminApi'
import type { ApiMetrics } from '@/lib/web/admin/apiTypes'
import { DeadLetters } from './DeadLetters'

vi.mock('next/navigation', () => ({
  useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }),
  usePathname: () => '/admin/dead',
  useSearchParams: () => new URLSearchParams(),
}))

const states = { queued: 0, scheduled: 0, running: 0, retrying: 0, dead: 2 }
const apiMetrics: ApiMetrics = {
  generatedAt: '2026-12-01T17:50:01.000Z',
  windowSeconds: 3600,
  depth: [{ task: 'mint_send', state: 'dead', count: 2 }],
  totals: states,
  oldestQueued: null,
  tasks: [
    {
      task: 'mint_send',
      depth: states,
      oldestQueuedAgeSeconds: null,
      succeeded: 0,
      failed: 2,
      failureRate: 1,
      p50Ms: 10,
      p95Ms: 10,
      maxMs: 10,
      died: 2,
    },
  ],
  deadLetters: { count: 2, recent: [] },
  throughput: { bucketSeconds: 60, buckets: [] },
  limits: { heartbeatMs: 5000, staleAfterMs: 30000, lockTimeoutMs: 60000 },
}

/** The HTML of a first render: the server's (an empty cache) or the browser's hydration (`cached` metrics). */
function firstRender(element: ReactElement, { cached }: { cached: boolean }): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } })
  if (cached) client.setQueryData(metricsQueryKey, apiMetricsToMetrics(apiMetrics))
  return renderToString(createElement(QueryClientProvider, { client }, element))
}

// The admin menu (in the layout) fetches the metrics as soon as it hydrates; a page streamed after it hydrates
// later, and its first render in the browser then finds the menu's metrics in the shared cache. That render must be
// the server's HTML, or React reports a hydration mismatch (#418).
describe('pages sharing the metrics cache with the admin menu', () => {
  it('/admin/dead renders the same with or without the menu having fetched the counts', () => {
    expect(firstRender(createElement(DeadLetters), { cached: true })).toBe(
      firstRender(createElement(DeadLetters), { cached: false }),
    )
  })
  it('/admin renders the same with or without the menu having fetched the counts', () => {
    expect(firstRender(createElement(AdminDashboard, { keySigners: [] }), { cached: true })).toBe(
      firstRender(createElement(AdminDashboard, { keySigners: [] }), { cached: false }),
    )
  })
})
