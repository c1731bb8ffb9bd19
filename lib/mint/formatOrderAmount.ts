import { weiToOz } from '@/lib/money/weiToOz'

/**
 * An order's `amount_wei` (numeric, as text) as fine ounces ('802.168'): THE amount of an
 * order in every view (staff pages, admin console, their APIs). An amount that is not a
 * whole number of milli-ounces (never written by mintdesk) is shown in wei rather than
 * rounded or hidden.
 */
export function formatOrderAmount(amountWei: string): string {
  try {
    return weiToOz(BigInt(amountWei))
  } catch {
    return `${amountWei} wei`
  }
}
