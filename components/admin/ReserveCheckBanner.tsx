import Link from 'next/link'
import { formatOunces } from '@/components/reserves/format'
import { ReserveStatusBadge } from '@/components/reserves/ReserveStatusBadge'
import { Alert } from '@/components/ui/Alert'
import type { SystemStatus } from './adminApi'
import { formatAge } from './format'

/** a check older than this many periods (60 s each by default) means reserve_check is not running */
const STALE_AFTER_SECONDS = 5 * 60

/**
 * The latest reserve reconciliation (the worker's reserve_check): a shortfall is as loud
 * as a dead letter, since the token would no longer be fully backed; a missing or stale
 * check is a warning; otherwise one quiet line.
 */
export function ReserveCheckBanner({ check }: { check: SystemStatus['reserveCheck'] }) {
  if (!check) {
    return (
      <Alert tone="warning" title="No reserve check recorded yet">
        The workers record one a minute after they start (reserve_check); until then nothing compares the token supply
        with the bars.
      </Alert>
    )
  }
  const age = formatAge(check.ageSeconds)
  if (check.status === 'shortfall') {
    return (
      <Alert
        tone="error"
        className="border-2 border-red-400"
        title={`Reserve shortfall: ${formatOunces(check.shortfallOz)}`}
      >
        <p>
          The on-chain supply ({formatOunces(check.totalSupply)}) exceeds the bars backing it (
          {formatOunces(check.backingFineOz)} backing + {formatOunces(check.inFlightFineOz)} in flight);{' '}
          {formatOunces(check.missingFineOz)} of bars held by mints are missing from the latest bar lists. Checked {age}{' '}
          ago at block {check.blockNumber}.
        </p>
        <p className="mt-2">
          <Link href="/reserves" className="font-semibold underline underline-offset-4">
            See the reserves
          </Link>
        </p>
      </Alert>
    )
  }
  if (check.ageSeconds > STALE_AFTER_SECONDS) {
    return (
      <Alert tone="warning" title={`The latest reserve check is ${age} old`}>
        It was covered then. No worker has run reserve_check since: look at the workers and the dead letters.
      </Alert>
    )
  }
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-stone-600" role="status">
      Reserves <ReserveStatusBadge status={check.status} />
      supply {formatOunces(check.totalSupply)}, backing {formatOunces(check.backingFineOz)} + in flight{' '}
      {formatOunces(check.inFlightFineOz)}; checked {age} ago.{' '}
      <Link href="/reserves" className="underline underline-offset-4">
        Details
      </Link>
    </p>
  )
}
