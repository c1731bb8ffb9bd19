import type { DbOrTx } from '@/db/client'
import { readLatestBarList, type StoredBarList } from './readLatestBarList'

/** Reads a vault's latest bar list, once per vault for the reader's life. */
export type BarListReader = (vault: string) => Promise<StoredBarList | undefined>

/**
 * readLatestBarList for the orders of one send batch: the first order of a vault reads its list,
 * the batch's other orders of that vault share the read (one statement per vault and batch, not
 * per order). Made afresh for each read the batch does (before its lock, and again in its reserve
 * transaction), so each of them sees the list as it is then.
 */
export function createBarListReader(db: DbOrTx): BarListReader {
  const lists = new Map<string, Promise<StoredBarList | undefined>>()
  return (vault) => {
    let list = lists.get(vault)
    if (!list) {
      list = readLatestBarList(db, { vault })
      lists.set(vault, list)
    }
    return list
  }
}
