import type { ApiDeposit } from '@/lib/web/redemptions/apiTypes'

/** A deposit's identity as a form value: its transaction hash and log index ('0xabc…:3'). */
export function depositKey(deposit: Pick<ApiDeposit, 'txHash' | 'logIndex'>): string {
  return `${deposit.txHash}:${deposit.logIndex}`
}
