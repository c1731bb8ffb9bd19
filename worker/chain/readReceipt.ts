import { type Hex, type PublicClient, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'

export type ReadReceiptParameters = { hash: Hex }

/** The receipt, or null when the node has none (not mined yet, unknown, or reorged away). RPC failures throw. */
export async function readReceipt(
  client: PublicClient,
  { hash }: ReadReceiptParameters,
): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash })
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null
    throw error
  }
}
