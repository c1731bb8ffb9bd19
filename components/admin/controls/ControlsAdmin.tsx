'use client'

import type { ApiAllowedRecipient, ApiMintLimits } from '@/lib/controls/apiTypes'
import { LimitsPanel } from './LimitsPanel'
import { RecipientsPanel } from './RecipientsPanel'

export type ControlsAdminProps = { initialRecipients: ApiAllowedRecipient[]; initialLimits: ApiMintLimits }

/** The admins' Controls page: the mint limits, then the recipient allowlist. */
export function ControlsAdmin({ initialRecipients, initialLimits }: ControlsAdminProps) {
  return (
    <div className="space-y-6">
      <LimitsPanel initialLimits={initialLimits} />
      <RecipientsPanel initialRecipients={initialRecipients} />
    </div>
  )
}
