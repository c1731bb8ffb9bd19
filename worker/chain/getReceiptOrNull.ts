import { type Hex, type PublicClient, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'

export type GetReceiptOrNullParameters = { hash: Hex }

/** The receipt, or null when the node has none (not mined yet, unknown, or reorged away). RPC failures throw. */
export async function getReceiptOrNull(
  client: PublicClient,
  { hash }: GetReceiptOrNullParameters,
): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash })
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null
    throw error
  }
}
