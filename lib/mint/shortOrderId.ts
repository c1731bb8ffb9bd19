/**
 * An order id as the tables, the jobs search and the email subjects show it: its first 8 characters.
 *
 * @example
 * shortOrderId('0981336b-5d7a-4a8f-9a51-0d6f3e3c9b21') // '0981336b'
 */
export function shortOrderId(orderId: string): string {
  return orderId.slice(0, 8)
}
