import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { applyDatabaseRoles } from './applyDatabaseRoles'
import { DATABASE_ROLES, type RuntimeRole } from './roleNames'
import { scramVerifier } from './scramVerifier'
import { FUNCTION_GRANTS, TABLE_GRANTS } from './tableGrants'

// Invariant 7 against a real Postgres: connected as each runtime role, what it may not do
// fails with SQLSTATE 42501 (insufficient_privilege), and what the grants table says is
// exactly what each role holds. The role step ran in the template's migration
// (tests/setup/globalSetup.ts); every worker test runs as mintdesk_worker and every route
// test as mintdesk_web, which proves what they may do.

const ROLES: RuntimeRole[] = ['web', 'worker']

describe('database roles (invariant 7)', () => {
  let t: TestDatabase
  const as: Partial<Record<RuntimeRole, postgres.Sql>> = {}
  let orderId: string
  let signer: string

  const role = (r: RuntimeRole): postgres.Sql => {
    const c = as[r]
    if (!c) throw new Error(`no connection as ${r}`)
    return c
  }
  /** the SQLSTATE a statement fails with, or 'ok' */
  const outcome = async (query: PromiseLike<unknown>): Promise<string> => {
    try {
      await query
      return 'ok'
    } catch (error) {
      return String((error as { code?: unknown }).code ?? error)
    }
  }

  beforeAll(async () => {
    t = await createTestDatabase()
    for (const r of ROLES) as[r] = postgres(t.roleUrl(r), { max: 1, onnotice: () => {} })
    const staff = await insertUser(t.db, 'staff')
    orderId = (await insertOrder(t.db, { requestedBy: staff.id, status: 'pending' })).id
    signer = await insertSigner(t.db)
    await reserveNonce(t.db, { signer, nonce: 0n, orderId, signed: true })
    await t.sql`insert into audit_log (actor_email, action, target_type, target_id) values ('admin@mintdesk.test', 'job.cancel', 'job', '1')`
    await t.sql`insert into job_events (event, task, order_id, detail) values ('enqueued', 'mint_send', ${orderId}::uuid, 'seed')`
  })
  afterAll(async () => {
    await Promise.all(Object.values(as).map((c) => c.end({ timeout: 5 })))
    await t.drop()
  })

  it('each process logs in as its own role, which is nothing more than a login', async () => {
    for (const r of ROLES) {
      const [me] = await role(r)<
        { user: string; superuser: boolean; createdb: boolean; createrole: boolean; bypassrls: boolean; owns: number }[]
      >`
        select current_user as user, r.rolsuper as superuser, r.rolcreatedb as createdb, r.rolcreaterole as createrole, r.rolbypassrls as bypassrls,
          (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relowner = r.oid and n.nspname in ('public', 'graphile_worker', 'drizzle')) as owns
        from pg_roles r where r.rolname = current_user`
      expect(me).toEqual({
        user: DATABASE_ROLES[r],
        superuser: false,
        createdb: false,
        createrole: false,
        bypassrls: false,
        owns: 0,
      })
      const [member] = await role(r)<
        { n: number }[]
      >`select count(*)::int as n from pg_auth_members m join pg_roles g on g.oid = m.roleid where m.member = (select oid from pg_roles where rolname = current_user)`
      expect(member?.n, `${r} is a member of no other role`).toBe(0)
    }
  })

  it('the web cannot write signed transactions, nonces or signers: 42501', async () => {
    const web = role('web')
    const hash = `0x${randomBytes(32).toString('hex')}`
    expect(
      await outcome(web`insert into chain_txs (hash, signer_address, nonce, order_id, kind, raw_tx, max_fee_per_gas, max_priority_fee_per_gas, gas_limit)
      values (${hash}, ${signer}, 0, ${orderId}::uuid, 'mint', '0x00', '1', '1', '21000')`),
    ).toBe('42501')
    expect(await outcome(web`update chain_txs set raw_tx = '0x00'`)).toBe('42501')
    expect(await outcome(web`delete from chain_txs`)).toBe('42501')
    expect(await outcome(web`update signer_nonces set state = 'released' where order_id = ${orderId}::uuid`)).toBe(
      '42501',
    )
    expect(
      await outcome(
        web`insert into signer_nonces (signer_address, nonce, use, state) values (${signer}, 99, 'gap_fill', 'reserved')`,
      ),
    ).toBe('42501')
    expect(await outcome(web`delete from signer_nonces`)).toBe('42501')
    expect(await outcome(web`update signers set next_nonce = 0`)).toBe('42501')
    expect(
      await outcome(
        web`insert into signers (address, kms_key_id, chain_id, next_nonce) values ('0x0000000000000000000000000000000000000001', 'k', 1, 0)`,
      ),
    ).toBe('42501')
    expect(await outcome(web`update workers set stopped_at = now()`)).toBe('42501')
    // what it reads for the admin pages, it still reads
    expect(await outcome(web`select * from chain_txs, signer_nonces, signers limit 1`)).toBe('ok')
  })

  it('no runtime role can update, delete or truncate audit rows or the timeline: 42501', async () => {
    for (const r of ROLES) {
      const c = role(r)
      for (const table of ['audit_log', 'job_events']) {
        expect(await outcome(c.unsafe(`update ${table} set id = id`)), `${r} update ${table}`).toBe('42501')
        expect(await outcome(c.unsafe(`delete from ${table}`)), `${r} delete ${table}`).toBe('42501')
        expect(await outcome(c.unsafe(`truncate ${table}`)), `${r} truncate ${table}`).toBe('42501')
      }
      // appending is what they do
      expect(
        await outcome(
          c`insert into job_events (event, task, detail) values ('enqueued', 'nonce_health', ${`appended by ${r}`})`,
        ),
      ).toBe('ok')
      expect(
        await outcome(
          c`insert into audit_log (actor_email, action, target_type, target_id) values (${`${r}@mintdesk.test`}, 'test', 'job', '1')`,
        ),
      ).toBe('ok')
    }
    const [rows] = await t.sql<
      { n: number }[]
    >`select count(*)::int as n from audit_log where actor_email = 'admin@mintdesk.test'`
    expect(rows?.n).toBe(1)
  })

  it('the worker creates no orders, bars or users, and neither role changes the schema: 42501', async () => {
    const worker = role('worker')
    expect(await outcome(worker`update users set role = 'admin'`)).toBe('42501')
    expect(
      await outcome(
        worker`insert into mint_order_bars (order_id, bar_id, position) select ${orderId}::uuid, id, 99 from vault_bars limit 1`,
      ),
    ).toBe('42501')
    expect(await outcome(worker`delete from mint_orders`)).toBe('42501')
    expect(await outcome(worker`update bar_lists set bar_count = 0`)).toBe('42501')
    for (const r of ROLES) {
      const c = role(r)
      expect(await outcome(c`create table public.evil (id int)`), `${r} create table`).toBe('42501')
      expect(await outcome(c`alter table mint_orders add column evil int`), `${r} alter table`).toBe('42501')
      expect(await outcome(c`create table graphile_worker.evil (id int)`), `${r} create in graphile_worker`).toBe(
        '42501',
      )
      expect(
        await outcome(c`insert into graphile_worker.migrations (id) values (999999)`),
        `${r} graphile migrations`,
      ).toBe('42501')
      expect(await outcome(c`delete from drizzle.__drizzle_migrations`), `${r} drizzle journal`).toBe('42501')
      expect(await outcome(c`select count(*) from drizzle.__drizzle_migrations`), `${r} reads the journal`).toBe('ok')
    }
  })

  it('holds exactly the privileges of db/roles/tableGrants.ts on every table of schema public', async () => {
    const tables = (
      await t.sql<{ name: string }[]>`select tablename as name from pg_tables where schemaname = 'public' order by 1`
    ).map((x) => x.name)
    expect(tables).toEqual(
      expect.arrayContaining([
        'chain_txs',
        'signer_nonces',
        'signers',
        'workers',
        'audit_log',
        'job_events',
        'mint_orders',
        'users',
      ]),
    )
    // a table without a line would be out of both roles' reach: every table has one
    expect(tables.filter((table) => !TABLE_GRANTS[table])).toEqual([])
    for (const table of tables) {
      for (const r of ROLES) {
        const expected = TABLE_GRANTS[table]?.[r] ?? []
        const [held] = await t.sql<Record<string, boolean>[]>`
          select has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'select') as select,
                 has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'insert') as insert,
                 has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'update') as update,
                 has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'delete') as delete,
                 has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'truncate') as truncate,
                 has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'references') as references,
                 has_table_privilege(${DATABASE_ROLES[r]}, ${`public.${table}`}, 'trigger') as trigger`
        const granted = Object.entries(held ?? {})
          .filter(([, v]) => v)
          .map(([k]) => k)
        expect(granted.sort(), `${r} on ${table}`).toEqual([...expected].sort())
      }
    }
  })

  it('both use the queue through graphile-worker functions, its rows visible despite its row level security', async () => {
    for (const r of ROLES) {
      const c = role(r)
      const [added] = await c<
        { id: string }[]
      >`select id::text as id from graphile_worker.add_job('nonce_health', '{}'::json, run_at := now() + interval '1 hour')`
      expect(added?.id).toBeDefined()
      const [seen] = await c<
        { n: number }[]
      >`select count(*)::int as n from graphile_worker._private_jobs where id = ${added?.id ?? '0'}::bigint`
      expect(seen?.n, `${r} sees the job it added`).toBe(1)
      const done = await c`select id from graphile_worker.complete_jobs(array[${added?.id ?? '0'}::bigint])`
      expect(done).toHaveLength(1)
    }
  })

  it('EXECUTE on the functions of schema public is exactly FUNCTION_GRANTS; only trigger functions are left to PUBLIC', async () => {
    const fns = await t.sql<{ name: string; oid: number; trigger: boolean; public: boolean }[]>`
      select p.proname as name, p.oid::int as oid, p.prorettype = 'trigger'::regtype as trigger,
             exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f'::"char", p.proowner))) x
                     where x.grantee = 0 and x.privilege_type = 'EXECUTE') as public
      from pg_proc p where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      order by 1`
    expect(fns.map((f) => f.name)).toEqual(expect.arrayContaining(['create_mint_order', 'enqueue_job']))
    for (const fn of fns) {
      const callers = FUNCTION_GRANTS[fn.name]
      if (!callers) {
        // a trigger function runs as the statement's caller whatever its EXECUTE says, and cannot be called
        expect(fn.trigger, `${fn.name} is not in FUNCTION_GRANTS, so PUBLIC may execute it: list it there`).toBe(true)
        continue
      }
      expect(fn.public, `PUBLIC may execute ${fn.name}`).toBe(false)
      for (const r of ROLES) {
        const [held] = await t.sql<{ ok: boolean }[]>`
          select has_function_privilege(${DATABASE_ROLES[r]}, ${fn.oid}::oid, 'execute') as ok`
        expect(held?.ok, `${r} EXECUTE on ${fn.name}`).toBe(callers.includes(r))
      }
    }
  })

  it('enqueue_job writes what the caller may: the web puts a job on SQS, the worker cannot (no insert on sqs_outbox): 42501', async () => {
    const spec = (transport: 'postgres' | 'sqs') =>
      JSON.stringify({ task: 'mint_send', payload: JSON.stringify({ orderId }), transport, order_id: orderId })
    expect(await outcome(role('web')`select public.enqueue_job(${spec('sqs')}::text::jsonb)`)).toBe('ok')
    expect(await outcome(role('worker')`select public.enqueue_job(${spec('sqs')}::text::jsonb)`)).toBe('42501')
    expect(await outcome(role('worker')`select public.enqueue_job(${spec('postgres')}::text::jsonb)`)).toBe('ok')
  })

  it('is idempotent: running the step again changes no privilege', async () => {
    const acl = () => t.sql<{ name: string; acl: string | null }[]>`
      select c.oid::regclass::text as name, c.relacl::text as acl from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'graphile_worker', 'drizzle') and c.relkind in ('r', 'v', 'S') order by 1`
    const before = await acl()
    await applyDatabaseRoles(t.sql)
    expect(await acl()).toEqual(before)
  })

  it('sets a password as a SCRAM verifier computed here, which Postgres accepts for that password', async () => {
    const name = `mintdesk_scram_${randomBytes(4).toString('hex')}`
    const password = randomBytes(18).toString('base64url')
    await t.sql.unsafe(`create role ${name} login password '${scramVerifier(password)}'`)
    try {
      const url = new URL(t.url)
      url.username = name
      url.password = password
      const c = postgres(url.toString(), { max: 1, onnotice: () => {} })
      try {
        expect((await c`select current_user as u`)[0]?.u).toBe(name)
      } finally {
        await c.end({ timeout: 5 })
      }
      url.password = `${password}x`
      const wrong = postgres(url.toString(), { max: 1, onnotice: () => {} })
      try {
        expect(await outcome(wrong`select 1`)).toBe('28P01')
      } finally {
        await wrong.end({ timeout: 5 })
      }
    } finally {
      await t.sql.unsafe(`drop role ${name}`)
    }
    await expect(applyDatabaseRoles(t.sql, { roles: { web: { password: "it's; drop" } } })).rejects.toThrow(
      /printable ASCII/,
    )
  })
})
