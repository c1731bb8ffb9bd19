/**
 * The addresses an admin typed, one per line or separated by commas or spaces, empty entries dropped; the API
 * judges each.
 *
 *   parseAddressList('0xab…\n 0xcd…, ') // ['0xab…', '0xcd…']
 */
export function parseAddressList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((a) => a.trim())
    .filter((a) => a !== '')
}
