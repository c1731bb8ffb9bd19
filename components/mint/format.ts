/** 0x7099…79C8: enough to recognise an address or hash; the full value goes in a title. */
export function shortHex(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`
}
