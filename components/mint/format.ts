/** 0x7099…79C8: enough to recognise an address or hash; the full value goes in a title. */
export function shortHex(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`
}

/**
 * An ISO time as "2026-01-31 14:05:09 UTC". Fixed to UTC so the server and the browser
 * render the same text (no hydration mismatch) and every reader sees the same clock.
 */
export function formatUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`
}
