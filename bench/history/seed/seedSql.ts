// The SQL expressions the history seed builds its rows from: ids, hashes, addresses, times and statuses derived from a
// row's number, so a row is found again from it (bench/history/seedYearOfHistory.ts).

/** a fixed uuid from a number: users, endpoints and bars are found again by it */
export function uuidOf(expr: string): string {
  return `('00000000-0000-4000-8000-' || lpad((${expr})::text, 12, '0'))::uuid`
}

/** an order's id from its number: spread like gen_random_uuid's, found again from the number */
export function orderIdOf(expr: string): string {
  return `md5('order' || (${expr}))::uuid`
}

/** a notification event's or a delivery's id from a text */
export function eventIdOf(expr: string): string {
  return `md5('event' || (${expr}))::uuid`
}

/** a 32-byte hash from a text */
export function txHashOf(expr: string): string {
  return `'0x' || md5('tx' || (${expr})) || md5('tx2' || (${expr}))`
}

/** a 20-byte address from a number */
export function recipientOf(expr: string): string {
  return `'0x' || md5('to' || (${expr})) || substr(md5('to2' || (${expr})), 1, 8)`
}

/** order g of n: spread over the 365 days before the last hour, oldest first */
export function orderAtOf(g: string, n: number): string {
  return `now() - interval '1 hour' - interval '365 days' + ((${g})::float8 / ${n}) * interval '365 days'`
}

/** the newest `liveTail` orders are still moving; of the rest, 3% failed, some rejected or cancelled, most confirmed */
export function orderStatusOf(g: string, n: number, liveTail: number): string {
  return `case
    when ${g} > ${n - liveTail} then (array['awaiting_approval', 'pending', 'submitted'])[1 + ${g} % 3]
    when ${g} % 100 < 3 then 'failed'
    when ${g} % 100 = 3 and ${g} % 3 = 0 then 'rejected'
    when ${g} % 100 = 4 and ${g} % 5 = 0 then 'cancelled'
    else 'confirmed' end`
}
