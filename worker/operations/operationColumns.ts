import type { OperationKindName } from '@/db/schema'
import { chainTxs, signerNonces } from '@/db/schema'

/**
 * THE home of where each kind's operations live (docs/decisions/049-one-pipeline-for-every-operation.md):
 * the kind's table, and the column of chain_txs and signer_nonces that references one of its rows.
 * The pipeline's readers and writers of those tables take a kind's name and find its columns here.
 */
export const operationColumns = {
  mint: {
    /** the table of the kind's operations: the pipeline binds their signer_address and nonce */
    table: 'mint_orders',
    /** the column of chain_txs and signer_nonces that names the operation, in SQL */
    reference: 'order_id',
    /** that column's property on a chain_txs or signer_nonces row as drizzle reads it */
    field: 'orderId',
    chainTxs: chainTxs.orderId,
    signerNonces: signerNonces.orderId,
  },
  control_change: {
    table: 'control_changes',
    reference: 'control_change_id',
    field: 'controlChangeId',
    chainTxs: chainTxs.controlChangeId,
    signerNonces: signerNonces.controlChangeId,
  },
} as const satisfies Record<
  OperationKindName,
  {
    table: string
    reference: string
    field: 'orderId' | 'controlChangeId'
    chainTxs: typeof chainTxs.orderId | typeof chainTxs.controlChangeId
    signerNonces: typeof signerNonces.orderId | typeof signerNonces.controlChangeId
  }
>

/** The id of the operation a chain_txs or signer_nonces row carries (its kind's reference column), or null. */
export function operationIdOf(p: {
  tx: { operation: OperationKindName | null } & Record<
    (typeof operationColumns)[OperationKindName]['field'],
    string | null
  >
}): string | null {
  return p.tx.operation === null ? null : p.tx[operationColumns[p.tx.operation].field]
}
