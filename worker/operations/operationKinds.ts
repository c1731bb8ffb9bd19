import type { OperationKindName } from '@/db/schema'
import { mintKind } from './mintKind'
import type { OperationKind, OperationRow } from './OperationKind'

/**
 * Every kind of the one send pipeline by its name (chain_txs.operation), for the steps that meet a stored
 * transaction and must ask its kind (docs/decisions/049-one-pipeline-for-every-operation.md).
 */
export const operationKinds: Record<
  OperationKindName,
  Pick<OperationKind<OperationRow>, 'noun' | 'checkStoredCall'>
> = {
  mint: mintKind,
}
