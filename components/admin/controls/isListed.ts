import type { ApiAllowedRecipient } from '@/lib/controls/apiTypes'

/** Whether `address` is on the allowlist shown, compared without case (a checksummed or a lower-case spelling). */
export function isListed(recipients: readonly Pick<ApiAllowedRecipient, 'address'>[], address: string): boolean {
  const wanted = address.trim().toLowerCase()
  return recipients.some((r) => r.address.toLowerCase() === wanted)
}
