import postgres from 'postgres'
import { startPostgres } from '/work/main/scripts/stack/postgres'
const pg = await startPostgres({ dataDir: '/work/main/.data/bench/pg', detached: true })
const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
try {
  const plan = await sql.unsafe(`explain (analyze, buffers) select
      (coalesce((
        select sum(b.fine_oz) from vault_bars b
        where b.order_id is not null and b.status = 'backing' and b.order_id is distinct from null::uuid
      ), 0) * 1000)::bigint::text as backing,
      (coalesce((
        select sum(b.fine_oz) from vault_bars b
        join mint_orders o on o.id = b.order_id
        where b.order_id is not null and b.status = 'reserved' and b.order_id is distinct from null::uuid
          and o.status <> 'confirmed'
          and (o.status = 'submitted' or exists (select 1 from chain_txs c where c.order_id = o.id))
      ), 0) * 1000)::bigint::text as in_flight`)
  console.log(plan.map(r=>r['QUERY PLAN']).join('\n'))
  console.log(await sql`select indexname, indexdef from pg_indexes where tablename='vault_bars'`)
} finally { await sql.end(); await pg.stop() }
