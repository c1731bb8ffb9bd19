import { type Hex, isHex } from 'viem'
import type { chainTxs } from '@/db/schema'
import { WorkerError } from '@/lib/errors/jobs'

type ChainTxRow = typeof chainTxs.$inferSelect

/** A stored transaction as the worker uses it: hash and raw bytes typed as hex. */
export type ChainTx = Omit<ChainTxRow, 'hash' | 'rawTx'> & { hash: Hex; rawTx: Hex }

/** The one boundary from a chain_txs row (text columns) to a ChainTx; a row that is not hex is corrupt. */
export function toChainTx(row: ChainTxRow): ChainTx {
  const { hash, rawTx } = row
  if (!isHex(hash) || !isHex(rawTx)) throw new WorkerError(`chain_txs row ${row.hash} does not hold hex`)
  return { ...row, hash, rawTx }
}
