import { readFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Scalar's standalone bundle (@scalar/api-reference, dist/browser/standalone.js), read from the installed package:
 * /docs/api serves it from our own origin, never a CDN. The package's exports do not name the file, so it is read
 * by its path; next.config.js has the standalone output carry it. Read once per process.
 */
let bundle: Promise<Buffer> | undefined

export function readScalarBundle(): Promise<Buffer> {
  bundle ??= readFile(path.join(process.cwd(), 'node_modules/@scalar/api-reference/dist/browser/standalone.js'))
  return bundle
}
