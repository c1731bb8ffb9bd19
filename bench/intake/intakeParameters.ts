import type { MainStackContext } from '../runs/BenchRun'
import { stackEnv } from '../stack/stackEnv'
import type { RunIntakeParameters } from './runIntake'

/** The intake's arguments on the main stack (its runs set the concurrencies, kinds and label): the staff's, metered. */
export function intakeParameters(
  ctx: MainStackContext,
): Omit<RunIntakeParameters, 'concurrencies' | 'kinds' | 'label' | 'warmUp'> {
  return {
    session: ctx.staff.session,
    databaseUrl: stackEnv(ctx.stack, 'DATABASE_ADMIN_URL'),
    user: ctx.staff.sessionToCheck,
    bodies: ctx.bodies,
    durationSec: ctx.options.intakeSeconds,
    groups: ctx.stack.groups,
    log: ctx.log,
  }
}
