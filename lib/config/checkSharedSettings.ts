import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import type { RuntimeRole } from '@/db/roles/roleNames'

export type CheckSharedSettingsParameters = {
  /** the process starting */
  role: RuntimeRole
  /** its MINTER_ADDRESS (config.minterAddress); undefined: nothing to compare */
  minterAddress: string | undefined
}

export type CheckSharedSettingsReturnType = { ok: true } | { ok: false; variables: string[]; message: string }

/** the row name of MINTER_ADDRESS in runtime_settings */
export const MINTER_ADDRESS_SETTING = 'minter_address'

/**
 * The start check of the settings the web and the worker must share (production only,
 * through checkRuntimeDatabase). MINTER_ADDRESS is read by both, each from its own
 * environment: the web builds the typed data approvers sign for that GoldMinter, the
 * worker relays the signatures to it; with two values every signature is for a contract
 * the worker does not send to. Neither process can see the other's environment, so each
 * writes its own value to runtime_settings as it starts (its row: the value it runs with
 * from now on), then compares it with the other process's row: a difference is refused,
 * naming MINTER_ADDRESS. Written before it compares, so a change deployed to both
 * converges while a value set on one side only keeps that side from starting. Before the
 * other process has ever started there is nothing to compare: it is checked when that one
 * starts.
 *
 * @example
 * const checked = await checkSharedSettings(db, { role: 'worker', minterAddress: config.minterAddress })
 * if (!checked.ok) throw new ConfigError(checked.variables, checked.message)
 */
export async function checkSharedSettings(
  db: Db,
  { role, minterAddress }: CheckSharedSettingsParameters,
): Promise<CheckSharedSettingsReturnType> {
  if (minterAddress === undefined) return { ok: true }
  const mine = minterAddress.toLowerCase()
  const other = role === 'web' ? 'worker' : 'web'
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into runtime_settings (process, name, value) values (${role}, ${MINTER_ADDRESS_SETTING}, ${mine})
      on conflict (process, name) do update set value = excluded.value, recorded_at = now()`)
    return tx.execute<{ value: string; recorded_at: string }>(sql`
      select value, recorded_at::text as recorded_at from runtime_settings
      where process = ${other} and name = ${MINTER_ADDRESS_SETTING}`)
  })
  const theirs = rows[0]
  if (!theirs || theirs.value === mine) return { ok: true }
  return {
    ok: false,
    variables: ['MINTER_ADDRESS'],
    message:
      `production: MINTER_ADDRESS is ${mine} in this ${role}, but the ${other} started with ${JSON.stringify(theirs.value.slice(0, 42))} (${theirs.recorded_at}): ` +
      `the web builds the intents approvers sign for one GoldMinter and the worker relays them to it, so both must use one value. Set the same MINTER_ADDRESS on the web and the worker`,
  }
}
