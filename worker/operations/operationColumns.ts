import type { OperationKindName } from '@/db/schema'
import { chainTxs, signerNonces } from '@/db/schema'
import type { OperationReference } from './OperationKind'

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
  redemption: {
    table: 'redemptions',
    reference: 'redemption_id',
    field: 'redemptionId',
    chainTxs: chainTxs.redemptionId,
    signerNonces: signerNonces.redemptionId,
  },
  compliance: {
    table: 'compliance_operations',
    reference: 'compliance_operation_id',
    field: 'complianceOperationId',
    chainTxs: chainTxs.complianceOperationId,
    signerNonces: signerNonces.complianceOperationId,
  },
} as const satisfies Record<
  OperationKindName,
  {
    table: string
    reference: string
    field: keyof OperationReference
    chainTxs: (typeof chainTxs)[keyof OperationReference]
    signerNonces: (typeof signerNonces)[keyof OperationReference]
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
