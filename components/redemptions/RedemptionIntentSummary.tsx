import type { ReactNode } from 'react'
import { Alert } from '@/components/ui/Alert'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiRedemptionApproval } from '@/lib/web/signing/apiTypes'
import type { RedemptionIntentDescription } from './describeRedemptionIntent'

export type RedemptionIntentSummaryProps = {
  approval: ApiRedemptionApproval
  intent: RedemptionIntentDescription
}

/**
 * The RedemptionIntent an approver signs (EIP-712 typed data, as GET .../approval gives it), in words: the address
 * burned from, the amount, the bars' hash, the deadline, the chain and the contract; how many approvers must sign
 * and who has so far; and a warning not to sign when it differs from the redemption.
 */
export function RedemptionIntentSummary({ approval, intent }: RedemptionIntentSummaryProps) {
  const signed = approval.signatures.length
  return (
    <section aria-label="Intent to sign" className="space-y-3 rounded-md border border-stone-200 bg-stone-50 p-4">
      <h3 className="text-sm font-semibold text-stone-800">What you sign</h3>
      <dl className="grid gap-x-8 gap-y-2 sm:grid-cols-2">
        <Row label="Burn from">
          <span className="break-all font-mono text-xs">{intent.from}</span>
        </Row>
        <Row label="Amount">
          <span className="tabular">{intent.amountOz}</span> fine oz
        </Row>
        <Row label="Bars hash">
          <span className="break-all font-mono text-xs">{intent.barsHash}</span>
        </Row>
        <Row label="Deadline">
          {intent.deadline === null ? 'none' : <time dateTime={intent.deadline}>{formatUtc(intent.deadline)}</time>}
          {intent.expired ? ' (expired)' : null}
        </Row>
        <Row label="Chain">{intent.chainId}</Row>
        <Row label="Contract">
          <span className="break-all font-mono text-xs">{intent.contract}</span>
        </Row>
      </dl>
      <p className="text-sm text-stone-700">
        {`${signed} of ${approval.required} signature${approval.required === 1 ? '' : 's'}`}
      </p>
      {intent.mismatches.length > 0 ? (
        <Alert tone="error" title="Do not sign: the intent does not match the redemption">
          {intent.mismatches.join('; ')}.
        </Alert>
      ) : null}
    </section>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-stone-900">{children}</dd>
    </div>
  )
}
