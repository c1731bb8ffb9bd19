/**
 * The link of an event's page in an email, by its type: a mint order's APP_URL/mints/{id}, a redemption's
 * APP_URL/redemptions/{id}, a compliance operation's APP_URL/admin/compliance (its operations listed there).
 */
export function orderLink({ appUrl, orderId, type }: { appUrl: string; orderId: string; type?: string }): string {
  const base = appUrl.replace(/\/+$/, '')
  if (type?.startsWith('compliance.')) return `${base}/admin/compliance`
  const page = type?.startsWith('redemption.') ? 'redemptions' : 'mints'
  return `${base}/${page}/${encodeURIComponent(orderId)}`
}
