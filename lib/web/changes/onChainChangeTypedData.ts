import { buildControlChangeTypedData } from '@/lib/changes/controlChangeIntent'
import type { ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { ApiChangeTypedData } from './apiTypes'

/** How long admins have to sign a change that lives on chain, from its typed data (GoldMinter refuses it after). */
export const CHANGE_DEADLINE_MS = 7 * 24 * 60 * 60 * 1000

/** The change's ControlChange as the JSON typed data eth_signTypedData_v4 takes (numbers as decimal strings). */
export function onChainChangeTypedData(p: {
  changeId: string
  change: ParsedOnChainChange
  deadline: Date
  minter: MinterReader
}): ApiChangeTypedData {
  const typed = buildControlChangeTypedData(p.minter.domain, p)
  const m = typed.message
  return {
    domain: { ...typed.domain, chainId: String(typed.domain.chainId) },
    types: { ControlChange: typed.types.ControlChange.map((f) => ({ ...f })) },
    primaryType: typed.primaryType,
    message: { changeId: m.changeId, action: m.action, params: m.params, deadline: m.deadline.toString() },
  }
}
