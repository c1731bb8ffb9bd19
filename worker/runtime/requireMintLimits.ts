import type { DbOrTx } from '@/db/client'
import { readMintLimits } from '@/lib/controls/readMintLimits'
import { WorkerStartError } from '@/lib/errors/jobs'

export type RequireMintLimitsParameters = {
  /** production mode (config.production): only then are unset limits refused */
  production: boolean
}

/**
 * Production refuses to sign without limits: the worker, which signs, does not
 * start while mint_limits lacks the per-order limit or the rolling 24 h cap. A deploy
 * sets them before the first worker starts (cli/limits.ts, docs/deploy.md); afterwards
 * admins change them on the /admin/controls page. Dev and tests may leave them unset
 * (unlimited).
 */
export async function requireMintLimits(db: DbOrTx, { production }: RequireMintLimitsParameters): Promise<void> {
  if (!production) return
  const limits = await readMintLimits(db)
  const unset = [
    limits.maxOrderWei === null && 'the per-order limit',
    limits.dailyCapWei === null && 'the rolling 24 h cap',
  ].filter((x): x is string => typeof x === 'string')
  if (unset.length === 0) return
  throw new WorkerStartError(
    `production mode refuses to start without mint limits: ${unset.join(' and ')} ${unset.length === 1 ? 'is' : 'are'} not set. ` +
      'Set both on the /admin/controls page, or before the first start with `node limits.mjs --max-order-oz N --daily-cap-oz N` (cli/limits.ts; docs/deploy.md)',
  )
}
