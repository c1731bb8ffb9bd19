'use client'

import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { formatRelative } from './format'

export type RefreshControlProps = {
  paused: boolean
  onPausedChange: (paused: boolean) => void
  intervalMs: number
  /** when the data shown was last fetched (React Query's dataUpdatedAt), 0 before the first */
  updatedAt: number
  fetching: boolean
  onRefresh: () => void
}

/** "Live · updated 3 s ago" with Pause/Resume and Refresh now: auto-refresh an operator can stop. */
export function RefreshControl({
  paused,
  onPausedChange,
  intervalMs,
  updatedAt,
  fetching,
  onRefresh,
}: RefreshControlProps) {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000)
    return () => clearInterval(timer)
  }, [])
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named group of a status and two buttons, not a form's fieldset
    <div className="flex flex-wrap items-center gap-3 text-sm text-stone-600" role="group" aria-label="Refresh">
      <span role="status" aria-live="polite" className="inline-flex items-center gap-2">
        <span
          aria-hidden="true"
          className={`inline-block h-2 w-2 rounded-full ${paused ? 'bg-stone-400' : fetching ? 'animate-pulse bg-emerald-500' : 'bg-emerald-500'}`}
        />
        {paused ? 'Paused' : `Live, every ${Math.round(intervalMs / 1000)} s`}
        {updatedAt > 0 ? (
          <span className="text-stone-500">
            · updated {formatRelative(new Date(updatedAt), new Date(Math.max(now.getTime(), updatedAt)))}
          </span>
        ) : null}
      </span>
      <Button size="sm" variant="secondary" aria-pressed={paused} onClick={() => onPausedChange(!paused)}>
        {paused ? 'Resume auto-refresh' : 'Pause auto-refresh'}
      </Button>
      <Button size="sm" variant="ghost" onClick={onRefresh} disabled={fetching}>
        Refresh now
      </Button>
    </div>
  )
}
