import { createBarListParser } from './createBarListParser'
import type { OnImportProgress } from './importProgress'
import type { ParsedBarList } from './parseBarList'

/** bytes between two `receive` reports */
const REPORT_EVERY_BYTES = 256 * 1024

export type ReadBarListParameters = {
  /** the text as it arrives (a request body's chunks: lib/web/http/openTextBody.ts) */
  chunks: AsyncIterable<string> | Iterable<string>
  now?: Date
  /** the body's declared size (Content-Length), the `receive` phase's total */
  totalBytes?: number | null
  /** told of the bytes read as they are (`receive`), then once as the list is checked (`check`) */
  onProgress?: OnImportProgress
} & ({ format: 'json' } | { format: 'csv'; vault: unknown; asOf: unknown })

export type ReadBarListReturnType = ParsedBarList

/**
 * A custodian's bar list read from a stream of text, JSON or CSV (createBarListParser):
 * each chunk is parsed as it comes and dropped, so the list is never held as text, and
 * the first row that refuses it stops the reading (the caller throws the rest of the
 * body away). POST /api/admin/vault/bar-lists uses it.
 *
 * ```ts
 * const list = await readBarList({ format: 'csv', chunks: rawBody.chunks, vault: 'LDN-1', asOf: '2026-11-30' })
 * ```
 */
export async function readBarList(p: ReadBarListParameters): Promise<ReadBarListReturnType> {
  const parser = createBarListParser(p)
  const total = p.totalBytes ?? null
  let read = 0
  let reported = 0
  for await (const text of p.chunks) {
    parser.push(text)
    read += Buffer.byteLength(text)
    if (p.onProgress && read - reported >= REPORT_EVERY_BYTES) {
      reported = read
      p.onProgress({ phase: 'receive', done: read, total })
    }
  }
  if (p.onProgress) {
    p.onProgress({ phase: 'receive', done: read, total: total ?? read })
    p.onProgress({ phase: 'check', done: 0, total: null })
    // the check holds the CPU for seconds (the list's root): let the lines go out first
    await new Promise((resolve) => setImmediate(resolve))
  }
  return parser.end()
}
