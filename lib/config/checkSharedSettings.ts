import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import type { RuntimeRole } from '@/db/roles/roleNames'
import { weiToOz } from '@/lib/money/weiToOz'

export type CheckSharedSettingsParameters = {
  /** the process starting */
  role: RuntimeRole
  /** its APPROVAL_THRESHOLD_OZ, in wei (config.approvalThresholdWei) */
  approvalThresholdWei: bigint
}

export type CheckSharedSettingsReturnType = { ok: true } | { ok: false; variables: string[]; message: string }

/** the row name of APPROVAL_THRESHOLD_OZ in runtime_settings */
export const APPROVAL_THRESHOLD_SETTING = 'approval_threshold_wei'

/**
 * The start check of the settings the web and the worker must share (production only,
 * through checkRuntimeDatabase). APPROVAL_THRESHOLD_OZ is read by both, each from its own
 * environment: the web decides which orders wait for a second person, the worker refuses
 * to sign those without one; with two values one of the two gates is silently off. Neither
 * process can see the other's environment, so each writes its own value to
 * runtime_settings as it starts (its row: the value it runs with from now on), then compares
 * it with the other process's row: a difference is refused, naming APPROVAL_THRESHOLD_OZ.
 * Written before it compares, so a change deployed to both converges (the second to start
 * finds the first's new value) while a value set on one side only keeps that side from
 * starting, every time. Before the other process has ever started there is nothing to
 * compare: it is checked when that one starts.
 *
 * @example
 * const checked = await checkSharedSettings(db, { role: 'worker', approvalThresholdWei: config.approvalThresholdWei })
 * if (!checked.ok) throw new ConfigError(checked.variables, checked.message)
 */
export async function checkSharedSettings(
  db: Db,
  { role, approvalThresholdWei }: CheckSharedSettingsParameters,
): Promise<CheckSharedSettingsReturnType> {
  const mine = approvalThresholdWei.toString()
  const other = role === 'web' ? 'worker' : 'web'
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into runtime_settings (process, name, value) values (${role}, ${APPROVAL_THRESHOLD_SETTING}, ${mine})
      on conflict (process, name) do update set value = excluded.value, recorded_at = now()`)
    return tx.execute<{ value: string; recorded_at: string }>(sql`
      select value, recorded_at::text as recorded_at from runtime_settings
      where process = ${other} and name = ${APPROVAL_THRESHOLD_SETTING}`)
  })
  const theirs = rows[0]
  if (!theirs || theirs.value === mine) return { ok: true }
  return {
    ok: false,
    variables: ['APPROVAL_THRESHOLD_OZ'],
    message:
      `production: APPROVAL_THRESHOLD_OZ is ${oz(mine)} oz in this ${role}, but the ${other} started with ${oz(theirs.value)} oz (${theirs.recorded_at}): ` +
      `the web decides which orders wait for a second person and the worker refuses to sign those without one, so both must use one value. Set the same APPROVAL_THRESHOLD_OZ on the web and the worker`,
  }
}

function oz(wei: string): string {
  try {
    return /^\d{1,40}$/.test(wei) ? weiToOz(BigInt(wei)) : JSON.stringify(wei.slice(0, 40))
  } catch {
    return `${wei} wei`
  }
}
