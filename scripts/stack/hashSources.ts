import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

export type HashSourcesParameters = {
  /** files and folders, relative to root; missing ones are passed over */
  sources: readonly string[]
  /** relative paths to leave out */
  skip: RegExp
}

/** One sha256 over the names and contents of the given sources, walked in a stable order. */
export function hashSources(root: string, { sources, skip }: HashSourcesParameters): string {
  const h = createHash('sha256')
  const walk = (rel: string) => {
    const abs = path.join(root, rel)
    if (!existsSync(abs) || skip.test(rel)) return
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) walk(path.join(rel, name))
    } else {
      h.update(`${rel}\0`)
      h.update(readFileSync(abs))
    }
  }
  for (const s of sources) walk(s)
  return h.digest('hex')
}
