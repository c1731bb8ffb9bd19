import { APPROVERS, type SeedPart, STAFF } from './historyVolume'
import { orderIdOf, uuidOf } from './seedSql'

/**
 * The audit log's year: sign-ins, requests, approvals, job and webhook actions by staff, approvers and the admin,
 * inserted through the chain's trigger (audit_log_chain), 100,000 rows per statement, so the verifier accepts them.
 */
export async function seedAudit({ sql, sizes, step }: SeedPart): Promise<void> {
  const n = sizes.orders
  const auditRows = sizes.auditRows
  await step(`${auditRows.toLocaleString('en-US')} audit rows through the chain's trigger`, async () => {
    const chunk = 100_000
    for (let from = 0; from < auditRows; from += chunk) {
      const count = Math.min(chunk, auditRows - from)
      await sql.unsafe(`
        insert into audit_log (actor_id, actor_email, action, target_type, target_id, detail, at)
        select case when k < 3 then ${uuidOf(`1 + (g / 10) % ${STAFF}`)} when k < 6 then ${uuidOf(`101 + (g / 10) % ${APPROVERS}`)}
            else ${uuidOf('200')} end,
          case when k < 3 then 'staff' || (1 + (g / 10) % ${STAFF}) || '@history.local'
            when k < 6 then 'approver' || (1 + (g / 10) % ${APPROVERS}) || '@history.local' else 'admin@history.local' end,
          (array['mint.requested', 'user.signed_in', 'redemption.requested', 'mint.approved', 'user.signed_in',
            'mint.rejected', 'job.retried', 'job.cancelled', 'webhook.created', 'bar_list.imported'])[1 + k],
          case when k in (1, 4) then 'user' when k in (6, 7) then 'job' when k = 8 then 'webhook'
            when k = 9 then 'bar_list' when k = 2 then 'redemption' else 'order' end,
          case when k in (1, 4) then 'staff' || (1 + (g / 10) % ${STAFF}) || '@history.local' when k in (6, 7) then (2 * g)::text
            else ${orderIdOf(`1 + (g * 7) % ${n}`)}::text end,
          jsonb_build_object('n', g, 'source', 'history seed'),
          now() - interval '366 days' + (g::float8 / ${auditRows}) * interval '365 days'
        from generate_series(${from + 1}, ${from + count}) g, lateral (select g % 10 as k) x`)
    }
  })
}
