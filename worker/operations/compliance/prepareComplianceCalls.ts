import type { Hex } from 'viem'
import type { DbOrTx } from '@/db/client'
import type { MinterRules } from '../../approvals/readMinterRules'
import { listComplianceSignatures } from '../../db/listComplianceSignatures'
import type { ComplianceOperationRow } from '../../db/lockComplianceOperations'
import type { WorkerContext } from '../../runtime/context'
import { buildComplianceCall } from './buildComplianceCall'

/**
 * The calldata of each compliance operation, from the minter's rules given and the operations' signatures read
 * once through `db` (buildComplianceCall: every signature verified; a refusal rejects that operation's promise only).
 */
export async function prepareComplianceCalls(
  ctx: WorkerContext,
  db: DbOrTx,
  p: { rows: readonly ComplianceOperationRow[]; rules: MinterRules },
): Promise<PromiseSettledResult<Hex>[]> {
  const signatures = await listComplianceSignatures(db, { ids: p.rows.map((r) => r.id) })
  return Promise.allSettled(
    p.rows.map((operation) =>
      buildComplianceCall(ctx, { operation, signatures: signatures.get(operation.id) ?? [], rules: p.rules }),
    ),
  )
}
