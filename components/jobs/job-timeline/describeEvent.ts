export type EventTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'admin'

export type EventDescription = { title: string; tone: EventTone }

export type DescribableEvent = {
  event: string
  attempt: number | null
  actor: string | null
  task: string
  /** the job's own maximum of attempts, when known: a dead letter before it was stopped by a permanent error */
  maxAttempts?: number | null
}

const titles: Record<string, [string, EventTone]> = {
  enqueued: ['Enqueued', 'neutral'],
  started: ['Started', 'info'],
  succeeded: ['Succeeded', 'success'],
  failed: ['Failed', 'danger'],
  retrying: ['Will retry', 'warning'],
  dead: ['Dead letter', 'danger'],
  nonce_reserved: ['Nonce reserved', 'info'],
  simulated: ['Simulated', 'info'],
  signed: ['Signed (KMS)', 'info'],
  broadcast: ['Broadcast', 'info'],
  already_known: ['Already known to the node', 'info'],
  not_mined_yet: ['Not mined yet', 'neutral'],
  replaced: ['Replaced with higher fees', 'warning'],
  mined: ['Mined', 'success'],
  confirmed: ['Confirmed', 'success'],
  reverted: ['Reverted', 'danger'],
  reorged: ['Receipt gone (reorg)', 'warning'],
  rebroadcast: ['Re-broadcast', 'warning'],
  gap_filled: ['Nonce gap filled', 'info'],
  retried: ['Retried', 'admin'],
  cancelled: ['Cancelled', 'admin'],
  unlocked: ['Unlocked (worker silent)', 'warning'],
  bars_held: ['Bars kept: its transaction can still be mined', 'warning'],
  bars_released: ['Bars freed', 'info'],
}

/**
 * How a timeline event reads: "Attempt 2 failed", "Retried by admin@…". Unknown events
 * (from newer worker code) still show, under their raw name.
 */
export function describeEvent(e: DescribableEvent): EventDescription {
  const [base, tone] = titles[e.event] ?? [e.event.replace(/_/g, ' '), 'neutral' as const]
  if ((e.event === 'retried' || e.event === 'cancelled') && e.actor) return { title: `${base} by ${e.actor}`, tone }
  if (e.event === 'dead' && e.attempt !== null && e.maxAttempts) {
    const why = e.attempt < e.maxAttempts ? 'a permanent error, not retried' : 'attempts used up'
    return { title: `${base}: ${why}`, tone }
  }
  if ((e.event === 'started' || e.event === 'failed' || e.event === 'succeeded') && e.attempt !== null) {
    return { title: `Attempt ${e.attempt} ${base.toLowerCase()}`, tone }
  }
  return { title: base, tone }
}
