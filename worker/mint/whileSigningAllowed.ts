import { readSigningSwitch } from '../db/readSigningSwitch'
import type { WorkerContext } from '../runtime/context'

export type WhileSigningAllowedReturnType<T> = { stopped: false; value: T } | { stopped: true; reason: string | null }

/**
 * Runs `fn` (a broadcast of new transactions) only while the stop switch is off, holding the switch's row
 * FOR SHARE in a transaction around it: an admin's stop waits for it to end, and no broadcast starts after the
 * stop commits (docs/decisions/052-stop-switch.md).
 */
export async function whileSigningAllowed<T>(
  ctx: Pick<WorkerContext, 'db'>,
  fn: () => Promise<T>,
): Promise<WhileSigningAllowedReturnType<T>> {
  return ctx.db.transaction(async (tx) => {
    const state = await readSigningSwitch(tx, { share: true })
    if (state.stopped) return { stopped: true as const, reason: state.reason }
    return { stopped: false as const, value: await fn() }
  })
}
