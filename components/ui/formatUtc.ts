/**
 * A time as "2026-12-01 17:50:01 UTC": the one date format of every page. Fixed to UTC, so the
 * server and the browser render the same text (no hydration mismatch) and every reader sees the
 * same clock. Takes a Date or an ISO string; a missing or unreadable time is "—".
 */
export function formatUtc(at: Date | string | null | undefined): string {
  if (at === null || at === undefined) return '—'
  const date = typeof at === 'string' ? new Date(at) : at
  if (Number.isNaN(date.getTime())) return '—'
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}
