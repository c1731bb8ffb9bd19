import { DEV_ADMIN_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { runAuditExport } from '../audit/runAuditExport'
import { signIn } from '../http/signIn'
import { renderAuditExport } from '../report/renderAuditExport'
import { stackEnv } from '../stack/stackEnv'
import type { BenchRun } from './BenchRun'

/** The chained audit log streamed as CSV through the real route, beside one buffered query; the web's memory. */
export const auditExportRun: BenchRun<'auditExport'> = {
  name: 'audit export',
  section: 5.5,
  stack: 'main',
  enabled: (o) => o.auditRows > 0,
  run: async (ctx) => {
    const admin = await signIn({
      baseUrl: ctx.stack.url,
      email: DEV_ADMIN_EMAIL,
      password: stackEnv(ctx.stack, 'DEV_ADMIN_PASSWORD'),
    })
    const auditExport = await runAuditExport({
      sql: ctx.sql,
      session: admin,
      rows: ctx.options.auditRows,
      groups: ctx.stack.groups,
      log: ctx.log,
    })
    return { auditExport }
  },
  render: ({ result, line, table }) => renderAuditExport({ auditExport: result.auditExport, line, table }),
}
