import { Alert } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiMintOrder, ApiMintOrderOutcome } from '@/lib/web/mint/apiTypes'

const TITLES: Record<ApiMintOrderOutcome['status'], string> = {
  failed: 'Failed: nothing was minted',
  rejected: 'Rejected: nothing will be minted',
  cancelled: 'Cancelled: nothing will be minted',
}

/**
 * What the page of a failed, rejected or cancelled order says first: the outcome, why (the reason's sentence, a
 * rejection's own words), by whom and when. An approval that came before it is told here, beneath, never as a green
 * banner above the failure. Nothing for an order still on its way or confirmed (OrderDecision speaks then).
 */
export function OrderOutcome({ order }: { order: Pick<ApiMintOrder, 'outcome' | 'decision'> }) {
  const { outcome, decision } = order
  if (!outcome) return null
  const when = <time dateTime={outcome.at}>{formatUtc(outcome.at)}</time>
  return (
    <Alert tone={outcome.status === 'failed' ? 'error' : 'warning'} title={TITLES[outcome.status]} aria-label="Outcome">
      <p>
        {outcome.status === 'failed' ? (
          <>Failed on {when}. </>
        ) : (
          <>
            {outcome.status === 'rejected' ? 'Rejected' : 'Cancelled'}
            {outcome.by ? (
              <>
                {' '}
                by <span className="font-medium">{outcome.by}</span>
              </>
            ) : null}{' '}
            on {when}.{' '}
          </>
        )}
        Why: {outcome.text}
      </p>
      {outcome.note ? (
        <p className="mt-1">
          Reason given: <q className="break-words">{outcome.note}</q>
        </p>
      ) : null}
      <p className="mt-1">
        Its bars are free again
        {/* nothing was signed for a rejected order; a failed or cancelled one may have a transaction out */}
        {outcome.status === 'rejected' ? '' : ' once no transaction signed for it can still be mined'}.
      </p>
      {decision?.outcome === 'approved' ? (
        <p className="mt-1 opacity-80">
          It had been approved by {decision.by} on <time dateTime={decision.at}>{formatUtc(decision.at)}</time>.
        </p>
      ) : null}
    </Alert>
  )
}
