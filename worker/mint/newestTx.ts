import type { ChainTx } from '../db/listOrderTxs'

/**
 * Of our transactions at one nonce, the one to (re-)send: the highest fee cap (each
 * replacement or gap fill outbids the one before), the latest on a tie.
 */
export function newestTx<T extends Pick<ChainTx, 'maxFeePerGas' | 'createdAt'>>(txs: readonly T[]): T {
  if (txs.length === 0) throw new Error('newestTx of no transactions')
  return txs.reduce((a, b) => {
    const fa = BigInt(a.maxFeePerGas)
    const fb = BigInt(b.maxFeePerGas)
    if (fb !== fa) return fb > fa ? b : a
    return b.createdAt >= a.createdAt ? b : a
  })
}
