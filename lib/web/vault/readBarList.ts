import { createBarListParser } from './createBarListParser'
import type { ParsedBarList } from './parseBarList'

export type ReadBarListParameters = {
  /** the text as it arrives (a request body's chunks: lib/web/http/openTextBody.ts) */
  chunks: AsyncIterable<string> | Iterable<string>
  now?: Date
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
  for await (const text of p.chunks) parser.push(text)
  return parser.end()
}
