import { freezeIntentTypes, pauseIntentTypes } from '@/lib/chain/typedData'
import {
  type BuildComplianceIntentParameters,
  buildComplianceIntent,
  complianceTypedData,
} from '@/lib/compliance/buildComplianceIntent'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { ApiComplianceTypedData } from './apiTypes'

/** The operation's intent as the JSON typed data eth_signTypedData_v4 takes (numbers as decimal strings). */
export function complianceApiTypedData(p: {
  operation: BuildComplianceIntentParameters
  minter: Pick<MinterReader, 'domain'>
}): ApiComplianceTypedData {
  const intent = buildComplianceIntent(p.operation)
  const typed = complianceTypedData(p.minter.domain, intent)
  const domain = { ...typed.domain, chainId: String(typed.domain.chainId) }
  if (intent.call === 'setFrozen')
    return {
      domain,
      types: { FreezeIntent: freezeIntentTypes.FreezeIntent.map((f) => ({ ...f })) },
      primaryType: 'FreezeIntent',
      message: { ...intent.intent, deadline: intent.intent.deadline.toString() },
    }
  return {
    domain,
    types: { PauseIntent: pauseIntentTypes.PauseIntent.map((f) => ({ ...f })) },
    primaryType: 'PauseIntent',
    message: { ...intent.intent, deadline: intent.intent.deadline.toString() },
  }
}
