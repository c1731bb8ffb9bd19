import type { DbOrTx } from '@/db/client'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { ApiComplianceState } from './apiTypes'
import { type ListComplianceOperationsParameters, listComplianceOperations } from './listComplianceOperations'
import { readComplianceChainState } from './readComplianceChainState'

/**
 * GET /api/admin/compliance: the chain's frozen accounts and pause state, beside the operations and timelines;
 * `chain` is null when the chain did not answer (the operations are listed all the same).
 */
export async function getComplianceState(
  db: DbOrTx,
  p: ListComplianceOperationsParameters & {
    /** GoldMinter's reader (webProcess' getMinterReader), asked for here: a chain not configured is a null `chain` */
    minter: () => MinterReader
  },
): Promise<ApiComplianceState> {
  const [chain, operations] = await Promise.all([
    Promise.resolve()
      .then(() => readComplianceChainState({ minter: p.minter() }))
      .catch(() => null),
    listComplianceOperations(db, { status: p.status, limit: p.limit }),
  ])
  return { chain, operations }
}
