import type { OperationKindName } from '@/db/schema'
import { complianceKind } from './complianceKind'
import { controlChangeKind } from './controlChangeKind'
import { mintKind } from './mintKind'
import type { OperationKind, OperationRow } from './OperationKind'
import { redemptionKind } from './redemptionKind'

/** What a step that holds only a stored transaction, or a followed operation, may ask of its kind. */
export type StoredOperationKind = Pick<
  OperationKind<OperationRow>,
  | 'kind'
  | 'noun'
  | 'sendTask'
  | 'done'
  | 'reference'
  | 'lock'
  | 'checkStoredCall'
  | 'eventIn'
  | 'markConfirmed'
  | 'reopen'
  | 'reorged'
  | 'handOver'
  | 'replaced'
>

/**
 * Every kind of the one send pipeline by its name (chain_txs.operation), for the steps that meet a stored
 * transaction or a followed operation and must ask its kind (docs/decisions/049-one-pipeline-for-every-operation.md).
 */
export const operationKinds: Record<OperationKindName, StoredOperationKind> = {
  mint: mintKind,
  control_change: controlChangeKind,
  redemption: redemptionKind,
  compliance: complianceKind,
}
