import { runHttpLoad } from '../intake/runHttpLoad'
import { MINT_PATH } from '../intake/runIntake'
import { dropQueuedOrders } from '../pipeline/dropQueuedOrders'
import { withProfile } from '../profile/withProfile'
import { renderCpuProfiles } from '../report/renderCpuProfiles'
import { APPENDIX, type BenchRun } from './BenchRun'

/**
 * The web's CPU profile under the intake's load (not a measured run: its figures are the profile's), worker idle. Its
 * orders are cancelled at the end. The CPU profiles' section, after the notes, holds it and the worker's.
 */
export const webProfileRun: BenchRun<'profiles'> = {
  name: 'web profile',
  section: APPENDIX,
  stack: 'main',
  enabled: (o) => o.profile,
  run: async (ctx) => {
    ctx.log('profiling the web under the intake (not a measured run)')
    const web = await withProfile({ stack: ctx.stack, root: ctx.root, who: 'web', roots: [ctx.stack.pids.web] }, () =>
      runHttpLoad({
        session: ctx.staff.session,
        path: MINT_PATH,
        connections: Math.max(...ctx.options.concurrencies),
        durationSec: Math.min(5, ctx.options.intakeSeconds),
        bodies: ctx.bodies,
        expectStatus: 202,
      }),
    )
    await dropQueuedOrders(ctx.sql)
    return { profiles: { ...ctx.measured.profiles, web } }
  },
  render: renderCpuProfiles,
}
