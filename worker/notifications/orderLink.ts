/** The link of an order's page in an email: APP_URL/mints/{orderId}. */
export function orderLink({ appUrl, orderId }: { appUrl: string; orderId: string }): string {
  return `${appUrl.replace(/\/+$/, '')}/mints/${encodeURIComponent(orderId)}`
}
