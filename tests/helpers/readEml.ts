import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * TEST ONLY: the text of a .eml as a reader sees it: its headers unfolded and their MIME
 * encoded words (a subject's `…`) decoded, the body's quoted-printable soft breaks and
 * escapes undone. Enough for the messages nodemailer writes.
 */
export function readEml(file: string): string {
  const raw = readFileSync(file, 'utf8')
  const split = raw.search(/\r?\n\r?\n/)
  const head = raw
    .slice(0, split)
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/\?= =\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeURIComponent(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
    )
  const body = raw
    .slice(split)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return head + body
}

/** every .eml of a mail folder (the SMTP sink's), read with readEml; none while the folder does not exist */
export function readMailDir(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => readEml(path.join(dir, f)))
}

/** a header's value in a message read by readEml (`Subject`, `To`) */
export function headerOf(mail: string, name: string): string | undefined {
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.slice(0, mail.search(/\r?\n\r?\n/)))?.[1]?.trim()
}
