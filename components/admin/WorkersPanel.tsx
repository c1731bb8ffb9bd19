'use client'

import { useEffect, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import type { SystemStatus } from './adminApi'
import { formatDuration, formatRelative } from './format'

/** The worker processes and their heartbeats; none alive means nothing is being minted. */
export function WorkersPanel({ system }: { system: SystemStatus }) {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000)
    return () => clearInterval(timer)
  }, [])
  const alive = system.workers.filter((w) => w.alive).length
  return (
    <div className="space-y-3">
      {alive === 0 ? (
        <Alert tone="error" title="No worker alive">
          No heartbeat within {formatDuration(system.staleAfterMs)}: queued jobs are not running. Start a worker (npm
          run worker).
        </Alert>
      ) : null}
      <ul className="divide-y divide-stone-100 text-sm" aria-label="Workers">
        {system.workers.map((w) => (
          <li key={w.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <Badge tone={w.alive ? 'success' : 'danger'}>{w.alive ? 'alive' : 'silent'}</Badge>
            <span className="font-mono">{w.id}</span>
            <span className="text-stone-500">
              {w.host} · pid {w.pid}
            </span>
            <span className="ml-auto text-stone-500">heartbeat {formatRelative(w.lastSeenAt, now)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
