// Pure and client-safe: the request form and the server normalize the same way.

export type NormalizeBarKeyReturnType = { ok: true; key: string } | { ok: false; message: string }

/**
 * Letters and marks that look like ASCII ones (Cyrillic, Greek,
 * dashes, spaces), by code point: what a typo or a spoof puts in a serial. Numbers, not
 * the characters: the server bundle then holds no character past U+00FF, and V8 keeps
 * its source at one byte per character.
 */
const LOOK_ALIKES: Record<number, string> = {
  // Cyrillic
  1040: 'A',
  1042: 'B',
  1045: 'E',
  1050: 'K',
  1052: 'M',
  1053: 'H',
  1054: 'O',
  1056: 'P',
  1057: 'C',
  1058: 'T',
  1061: 'X',
  1030: 'I',
  1032: 'J',
  1029: 'S',
  1072: 'a',
  1077: 'e',
  1086: 'o',
  1088: 'p',
  1089: 'c',
  1091: 'y',
  1093: 'x',
  1110: 'i',
  1112: 'j',
  1109: 's',
  // Greek
  913: 'A',
  914: 'B',
  917: 'E',
  918: 'Z',
  919: 'H',
  921: 'I',
  922: 'K',
  924: 'M',
  925: 'N',
  927: 'O',
  929: 'P',
  932: 'T',
  933: 'Y',
  935: 'X',
  959: 'o',
  // dashes, minus, spaces
  8208: '-',
  8209: '-',
  8210: '-',
  8211: '-',
  8212: '-',
  8722: '-',
  160: ' ',
  8199: ' ',
  8239: ' ',
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
    const twin = LOOK_ALIKES[code] ?? asciiTwin(char)
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
