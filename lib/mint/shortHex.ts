/**
 * 0x7099…79C8: enough to recognise an address or hash (the pages, the email subjects); the full value goes beside it
 * or in a title.
 *
 * @example
 * shortHex('0x70997970C51812dc3A010C7d01b50e0d17dc79C8') // '0x7099…79C8'
 */
export function shortHex(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`
}
