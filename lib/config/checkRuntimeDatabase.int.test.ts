import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { applyDatabaseRoles } from '@/db/roles/applyDatabaseRoles'
import type { RuntimeRole } from '@/db/roles/roleNames'
import { ConfigError } from '@/lib/errors/config'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { checkRuntimeDatabase } from './checkRuntimeDatabase'
import { checkTablePrivileges } from './checkTablePrivileges'

// Production's start checks in the database (security review), against a real Postgres,
// connected as each runtime role: a privilege beyond db/roles/tableGrants.ts (granted to the
// role, to PUBLIC, column by column, or as a default for new tables) and an
// MINTER_ADDRESS that is not the other process's are each refused, naming the variable.

describe('checkRuntimeDatabase (production start checks)', () => {
  let t: TestDatabase
  const as: Partial<Record<RuntimeRole, DbClient>> = {}
  const db = (role: RuntimeRole) => {
    const c = as[role]
    if (!c) throw new Error(`no connection as ${role}`)
    return c.db
  }
  /** the ConfigError a check throws, or null when it passes */
  const refusal = async (
    role: RuntimeRole,
    minterAddress = `0x${'aa'.repeat(20)}`,
    production = true,
  ): Promise<ConfigError | null> => {
    try {
      await checkRuntimeDatabase(db(role), { role, production, minterAddress })
      return null
    } catch (error) {
      if (error instanceof ConfigError) return error
      throw error
    }
  }

  beforeAll(async () => {
    t = await createTestDatabase()
    for (const role of ['web', 'worker'] as const) as[role] = createDb({ url: t.roleUrl(role), max: 2 })
  })
  afterEach(async () => {
    // each test's grants undone as the migration would, and the recorded minters forgotten
    await t.sql.unsafe(
      'alter default privileges in schema public revoke all on tables from mintdesk_web, mintdesk_worker',
    )
    await t.sql.unsafe('alter default privileges revoke all on tables from public')
    await applyDatabaseRoles(t.sql)
    await t.sql.unsafe('delete from runtime_settings')
  })
  afterAll(async () => {
    await Promise.all(Object.values(as).map((c) => c?.close()))
    await t?.drop()
  })

  it('the migrated database passes for both roles', async () => {
    expect(await refusal('web')).toBeNull()
    expect(await refusal('worker')).toBeNull()
    expect(await checkTablePrivileges(db('web'), { role: 'web' })).toEqual({ ok: true })
  })

  it('a privilege granted by hand beyond the role line is refused, naming DATABASE_URL; the other role still starts', async () => {
    await t.sql.unsafe('grant truncate on audit_log to mintdesk_web')
    const e = await refusal('web')
    expect(e?.variables).toEqual(['DATABASE_URL'])
    expect(e?.message).toContain('mintdesk_web')
    expect(e?.message).toContain('TRUNCATE on audit_log')
    expect(await refusal('worker')).toBeNull()
    // the migration sets the privileges again: then it starts
    await applyDatabaseRoles(t.sql)
    expect(await refusal('web')).toBeNull()
  })

  it('through PUBLIC, column by column, and on a table without a line of its own', async () => {
    await t.sql.unsafe('grant update on users to public')
    await t.sql.unsafe('grant update (raw_tx) on chain_txs to mintdesk_web')
    await t.sql.unsafe('grant references on runtime_settings to mintdesk_worker')
    const web = await checkTablePrivileges(db('web'), { role: 'web' })
    const worker = await checkTablePrivileges(db('worker'), { role: 'worker' })
    // the web may update users (its line); the worker may only read them
    expect(web.ok ? [] : web.excess).toEqual(['UPDATE on chain_txs'])
    expect(worker.ok ? [] : worker.excess.sort()).toEqual(['REFERENCES on runtime_settings', 'UPDATE on users'])
    await t.sql.unsafe('create table scratch_unlisted (id int)')
    try {
      // a table without a line gets the default (read and write) from the migration: a TRIGGER is more
      await applyDatabaseRoles(t.sql)
      expect(await refusal('worker')).toBeNull()
      await t.sql.unsafe('grant trigger on scratch_unlisted to mintdesk_worker')
      expect((await refusal('worker'))?.message).toContain('TRIGGER on scratch_unlisted')
    } finally {
      await t.sql.unsafe('drop table scratch_unlisted')
    }
  })

  it('a default privilege on new tables for the role (or PUBLIC) is refused, though no table has it yet', async () => {
    await t.sql.unsafe('alter default privileges in schema public grant select on tables to mintdesk_worker')
    const e = await refusal('worker')
    expect(e?.variables).toEqual(['DATABASE_URL'])
    expect(e?.message).toMatch(
      /SELECT on the new tables of postgres in schema public \(a default privilege for mintdesk_worker\)/,
    )
    expect(await refusal('web')).toBeNull()
    await t.sql.unsafe('alter default privileges grant insert on tables to public')
    expect((await refusal('web'))?.message).toMatch(
      /INSERT on the new tables of postgres \(a default privilege for PUBLIC\)/,
    )
  })

  it('MINTER_ADDRESS: a web and a worker that differ are refused, naming it, whichever starts second', async () => {
    const [a, b, c] = ['aa', 'bb', 'cc'].map((x) => `0x${x.repeat(20)}`)
    expect(await refusal('worker', a)).toBeNull() // nothing to compare with yet
    expect(await refusal('web', a)).toBeNull()
    const e = await refusal('web', b)
    expect(e?.variables).toEqual(['MINTER_ADDRESS'])
    expect(e?.message).toMatch(/MINTER_ADDRESS is 0xb{40} in this web, but the worker started with "0xa{40}"/)
    // a value set on one side only keeps that side from starting, every time
    expect((await refusal('web', b))?.variables).toEqual(['MINTER_ADDRESS'])
    const w = await refusal('worker', c)
    expect(w?.message).toMatch(/in this worker, but the web started with "0xb{40}"/)
    // a change deployed to both converges: the second to start finds the first's new value
    expect(await refusal('web', c)).toBeNull()
    expect(await refusal('worker', c)).toBeNull()
  })

  it('outside production nothing is checked (dev and tests share one database across settings)', async () => {
    await t.sql.unsafe('grant truncate on job_events to mintdesk_worker')
    expect(await refusal('worker', `0x${'11'.repeat(20)}`, false)).toBeNull()
    expect(await refusal('web', `0x${'22'.repeat(20)}`, false)).toBeNull()
    expect(await t.sql`select * from runtime_settings`).toHaveLength(0)
  })
})
