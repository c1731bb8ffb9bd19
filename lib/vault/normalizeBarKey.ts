// Pure and client-safe: the request form and the server normalize the same way.

export type NormalizeBarKeyReturnType = { ok: true; key: string } | { ok: false; message: string }

/**
 * Letters and marks that look like ASCII ones (Cyrillic, Greek,
 * dashes, spaces): what a typo or a spoof puts in a serial.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  '\u0410': 'A',
  '\u0412': 'B',
  '\u0415': 'E',
  '\u041a': 'K',
  '\u041c': 'M',
  '\u041d': 'H',
  '\u041e': 'O',
  '\u0420': 'P',
  '\u0421': 'C',
  '\u0422': 'T',
  '\u0425': 'X',
  '\u0406': 'I',
  '\u0408': 'J',
  '\u0405': 'S',
  '\u0430': 'a',
  '\u0435': 'e',
  '\u043e': 'o',
  '\u0440': 'p',
  '\u0441': 'c',
  '\u0443': 'y',
  '\u0445': 'x',
  '\u0456': 'i',
  '\u0458': 'j',
  '\u0455': 's',
  // Greek
  '\u0391': 'A',
  '\u0392': 'B',
  '\u0395': 'E',
  '\u0396': 'Z',
  '\u0397': 'H',
  '\u0399': 'I',
  '\u039a': 'K',
  '\u039c': 'M',
  '\u039d': 'N',
  '\u039f': 'O',
  '\u03a1': 'P',
  '\u03a4': 'T',
  '\u03a5': 'Y',
  '\u03a7': 'X',
  '\u03bf': 'o',
  // dashes, minus, spaces
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u202f': ' ',
}

/**
 * The key that identifies a bar's serial or refiner: upper case, spaces and dashes
 * removed ('ab-123 456' -> 'AB123456', 'Valcambi SA' -> 'VALCAMBISA'). Serial + refiner
 * keys identify a physical bar (vault_bars is unique on them).
 *
 * Only printable ASCII is accepted: a Cyrillic 'А', a Greek 'Ο' or a fullwidth '１' looks
 * like its ASCII twin but would make another key, so one physical bar could be listed or
 * requested twice. Such text is refused with a message naming the character (and the
 * ASCII character it looks like), never silently folded.
 */
export function normalizeBarKey(value: string): NormalizeBarKeyReturnType {
  let position = 0
  for (const char of value) {
    position++
    const code = char.codePointAt(0) ?? 0
    if (code >= 0x20 && code <= 0x7e) continue
    const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    if (code < 0x20 || code === 0x7f) {
      return {
        ok: false,
        message: `must contain only printable ASCII characters: a control character (${hex}) at position ${position}`,
      }
    }
    const twin = LOOK_ALIKES[char] ?? asciiTwin(char)
    return {
      ok: false,
      message: twin
        ? `must contain only ASCII characters: '${char}' (${hex}) at position ${position} looks like '${twin}' but is another character; type '${twin}'`
        : `must contain only ASCII characters: '${char}' (${hex}) at position ${position} is not one`,
    }
  }
  const key = value.replace(/[ -]+/g, '').toUpperCase()
  if (key === '') return { ok: false, message: 'must contain a letter or digit, not only spaces and dashes' }
  return { ok: true, key }
}

/** The ASCII character a compatibility form stands for (fullwidth 'Ａ' -> 'A', '１' -> '1'), if any. */
function asciiTwin(char: string): string | null {
  const folded = char.normalize('NFKC')
  return folded !== char && /^[\x21-\x7e]$/.test(folded) ? folded : null
}
