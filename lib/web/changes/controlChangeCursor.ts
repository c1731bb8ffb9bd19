import { isUuid } from '@/lib/mint/isUuid'
import { ValidationError } from '@/lib/web/errors/request'

/**
 * The list's cursor, opaque to clients: base64url of `c:<id>`, the last change of a page.
 * The next page is what comes after that change's (created_at, id), read in the database
 * at its own precision.
 */
export function encodeControlChangeCursor(changeId: string): string {
  return Buffer.from(`c:${changeId}`, 'utf8').toString('base64url')
}

/** The change id in a cursor; a cursor not made by encodeControlChangeCursor: 422 on `cursor`. */
export function decodeControlChangeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,80}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  const id = /^c:(.+)$/.exec(text)?.[1]
  if (!id || !isUuid(id)) throw new ValidationError([{ path: 'cursor', message: 'not a cursor from this list' }])
  return id
}
