import { Badge, type BadgeTone } from '@/components/ui/Badge'
import type { JobState } from '@/lib/jobs/jobStates'

const tones: Record<JobState, BadgeTone> = {
  queued: 'info',
  scheduled: 'neutral',
  running: 'brand',
  retrying: 'warning',
  dead: 'danger',
  done: 'success',
  cancelled: 'neutral',
}

export function JobStateBadge({ state }: { state: JobState }) {
  return <Badge tone={tones[state]}>{state}</Badge>
}

const orderTones: Record<string, BadgeTone> = {
  pending: 'info',
  submitted: 'brand',
  confirmed: 'success',
  failed: 'danger',
  cancelled: 'neutral',
}

export function OrderStatusBadge({ status }: { status: string }) {
  return <Badge tone={orderTones[status] ?? 'neutral'}>{status}</Badge>
}
