import { type Hex, type PublicClient, type Transaction, TransactionNotFoundError } from 'viem'

export type ReadTransactionParameters = { hash: Hex }

/** The transaction as the node knows it (pending or mined), or null when it does not know it. RPC failures throw. */
export async function readTransaction(
  client: PublicClient,
  { hash }: ReadTransactionParameters,
): Promise<Transaction | null> {
  try {
    return await client.getTransaction({ hash })
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return null
    throw error
  }
}
