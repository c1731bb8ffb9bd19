import { DEV_ADMIN_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { signIn } from '../http/signIn'
import { renderBarListImport } from '../report/renderInventory'
import { stackEnv } from '../stack/stackEnv'
import { runBarListImport } from '../vault/runBarListImport'
import type { BenchRun } from './BenchRun'

/** A custodian's bar list through the real route, new bars then the same bars again, the web's memory meanwhile. */
export const barListImportRun: BenchRun<'barListImport'> = {
  name: 'bar-list import',
  section: 5,
  stack: 'main',
  enabled: (o) => o.barListBars > 0,
  run: async (ctx) => {
    const admin = await signIn({
      baseUrl: ctx.stack.url,
      email: DEV_ADMIN_EMAIL,
      password: stackEnv(ctx.stack, 'DEV_ADMIN_PASSWORD'),
    })
    const barListImport = await runBarListImport({
      session: admin,
      runId: ctx.bodies.runId,
      bars: ctx.options.barListBars,
      groups: ctx.stack.groups,
      log: ctx.log,
    })
    return { barListImport }
  },
  render: ({ result, line, table }) => renderBarListImport({ barListImport: result.barListImport, line, table }),
}
