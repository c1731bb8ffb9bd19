import type { Hex } from 'viem'
import type { DbOrTx } from '@/db/client'
import { listControlChangeSignatures } from '../../db/listControlChangeSignatures'
import type { ControlChangeRow } from '../../db/lockControlChanges'
import type { WorkerContext } from '../../runtime/context'
import { buildControlChangeCall } from './buildControlChangeCall'
import type { AdminRules } from './readAdminRules'

/**
 * The calldata of each control change, from the admin rules given and the changes' signatures read
 * once through `db` (buildControlChangeCall: every signature verified; a refusal rejects that
 * change's promise only).
 */
export async function prepareControlChangeCalls(
  ctx: WorkerContext,
  db: DbOrTx,
  p: { rows: readonly ControlChangeRow[]; rules: AdminRules },
): Promise<PromiseSettledResult<Hex>[]> {
  const signatures = await listControlChangeSignatures(db, { ids: p.rows.map((r) => r.id) })
  return Promise.allSettled(
    p.rows.map(async (change) => {
      const call = await buildControlChangeCall(ctx, {
        change,
        signatures: signatures.get(change.id) ?? [],
        rules: p.rules,
      })
      return call.data
    }),
  )
}
