/**
 * One CSV cell: RFC 4180 (quoted when it holds a comma, a quote or a line break; quotes doubled), and against
 * formula injection a text that begins with =, +, -, @, a tab or a carriage return gets a ' before it, as does one
 * that begins with ' (so a reader removes exactly one leading ' to get the text back). Null is empty.
 *
 * ```ts
 * csvCell('=HYPERLINK("x")') // `"'=HYPERLINK(""x"")"`
 * ```
 */
export function csvCell(value: string | null): string {
  if (value === null) return ''
  const safe = /^[=+\-@\t\r']/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}
