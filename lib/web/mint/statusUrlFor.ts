/** Where the status of an order is read: GET /api/gold/mint/{orderId}. */
export function statusUrlFor(orderId: string): string {
  return `/api/gold/mint/${encodeURIComponent(orderId)}`
}
