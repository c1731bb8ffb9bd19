import type { DbOrTx, Tx } from '@/db/client'
import type { AdminActor } from '@/lib/admin/recordAudit'
import type { ApiControlChangeResult } from './apiTypes'
import type { ControlChangeKind, ControlChangeParams } from './controlChangeParams'

/** What a kind's check and apply step get besides its params. */
export type ControlChangeStepContext = {
  /** the token contract (TOKEN_ADDRESS): never a recipient */
  tokenAddress?: string
  /** production mode (config.production): limits may not be unset */
  production?: boolean
}

export type ControlChangeCheckParameters<K extends ControlChangeKind> = {
  params: ControlChangeParams<K>
  /** the admin who asks for the change */
  author: AdminActor
  context: ControlChangeStepContext
}

export type ControlChangeApplyParameters<K extends ControlChangeKind> = ControlChangeCheckParameters<K> & {
  changeId: string
  /** the second admin, who confirms it */
  confirmer: AdminActor
}

/**
 * One kind of control change (lib/web/changes/<kind>Step.ts, one file each):
 * - `check`: whether the change can be made to the state as it is now, reading only; throws
 *   the error the direct operation would (404, 409, 422). Run when it is asked for, so bad
 *   input or a stale target is refused before anything is written.
 * - `apply`: the same check again against the state at confirm time, then the change and its
 *   audit row (naming both admins), in the confirming transaction. Returns what it changed,
 *   as the change's `result`.
 */
export type ControlChangeStep<K extends ControlChangeKind> = {
  check: (db: DbOrTx, p: ControlChangeCheckParameters<K>) => Promise<void>
  apply: (tx: Tx, p: ControlChangeApplyParameters<K>) => Promise<ApiControlChangeResult>
}
