import { Alert } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiReserves } from '@/lib/web/reserves/apiTypes'
import { formatOunces, isPositive } from './format'
import { ReserveStatusBadge } from './ReserveStatusBadge'

/**
 * The proof of reserve at a glance: the token's on-chain supply beside the fine gold
 * backing it (confirmed and in flight), what is free, what is missing, the shortfall,
 * what was redeemed and the status; where the figures come from and when, and the address a
 * holder redeems at.
 */
export function ReserveSummary({ reserves }: { reserves: ApiReserves }) {
  const shortfall = reserves.status === 'shortfall'
  const rows: { label: string; value: string; note: string }[] = [
    {
      label: 'Token supply (on chain)',
      value: reserves.totalSupply,
      note: `at block ${reserves.blockNumber}; 1 token = 1 fine troy ounce`,
    },
    {
      label: 'Backing',
      value: reserves.backingFineOz,
      note: 'fine gold of the bars behind confirmed mints, present on the latest bar lists',
    },
    { label: 'In flight', value: reserves.inFlightFineOz, note: 'bars of mints signed or sent and not yet confirmed' },
    { label: 'Available', value: reserves.availableFineOz, note: 'listed bars that back no token yet' },
    {
      label: 'Missing',
      value: reserves.missingFineOz,
      note: 'bars held by a mint that the latest list lacks: they back nothing',
    },
    { label: 'Shortfall', value: reserves.shortfallOz, note: 'supply above backing + in flight' },
    {
      label: 'Redeemed',
      value: reserves.redeemedFineOz,
      note: 'bars of burned redemptions: out of backing, their tokens gone from the supply',
    },
  ]
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm text-stone-600">Status</span>
        <ReserveStatusBadge status={reserves.status} className="px-3 py-1 text-sm" />
        <span className="text-sm text-stone-500">
          as of <time dateTime={reserves.asOf}>{formatUtc(reserves.asOf)}</time>
        </span>
      </div>
      {shortfall ? (
        <Alert tone="error" title={`Shortfall: ${formatOunces(reserves.shortfallOz)}`}>
          The token supply exceeds the fine gold of the bars backing it. No new mint is signed while it would not be
          covered.
        </Alert>
      ) : null}
      {reserves.source === 'check' ? (
        <Alert tone="warning" title="The chain could not be read just now">
          These figures are those of the latest reconciliation check, at {formatUtc(reserves.asOf)}.
        </Alert>
      ) : null}
      <dl className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white">
        {rows.map((r) => (
          <div key={r.label} className="grid gap-1 px-5 py-3 sm:grid-cols-3 sm:items-baseline">
            <dt className="text-sm font-medium text-stone-700">{r.label}</dt>
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the figure's accessible name, which
                screen readers and the browser tests read */}
            <dd
              className={`tabular text-lg sm:text-right ${r.label === 'Shortfall' && isPositive(r.value) ? 'font-semibold text-red-700' : 'text-stone-900'}`}
              aria-label={`${r.label}: ${formatOunces(r.value)}`}
            >
              {formatOunces(r.value)}
            </dd>
            <dd className="text-xs text-stone-500 sm:text-right">{r.note}</dd>
          </div>
        ))}
      </dl>
      {reserves.redemptionAddress ? (
        <p className="text-sm text-stone-600">
          Holders redeem by sending tokens to the redemption address{' '}
          <span className="break-all font-mono text-stone-900">{reserves.redemptionAddress}</span>; the desk then burns
          them against whole bars of the same fine weight.
        </p>
      ) : null}
    </div>
  )
}
