import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { isBaseError } from '@/lib/errors/BaseError'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { setTestMintLimits } from '@/tests/helpers/recipients'
import { insertUser } from '@/tests/helpers/users'
import { confirmControlChange } from './confirmControlChange'
import { proposeControlChange } from './proposeControlChange'

// The control changes' domain calls as the web's database role (production's grants): the
// rules the routes cannot reach from a test (production mode), and what a stored change
// that no longer parses does.
let t: TestDatabase
let web: DbClient
let author: { id: string; email: string }
let confirmer: { id: string; email: string }

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  author = await insertUser(t.db, 'admin')
  confirmer = await insertUser(t.db, 'admin')
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
})

beforeEach(async () => {
  await t.db.execute(sql`delete from control_changes`)
  await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
})

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (isBaseError(e) ? e.code : String(e)),
  )

describe('limits.set in production', () => {
  it('refuses a limit left unset when asked for (422, nothing stored) and again when confirmed', async () => {
    const production = { production: true }
    for (const params of [
      { maxOrderOz: null, dailyCapOz: '10' },
      { maxOrderOz: '10', dailyCapOz: null },
    ]) {
      expect(
        await codeOf(proposeControlChange(web.db, { kind: 'limits.set', params, author, context: production })),
      ).toBe('validation_failed')
    }
    expect(await t.db.execute(sql`select 1 from control_changes`)).toHaveLength(0)
    // asked for outside production, confirmed in production: refused, still awaiting
    const { changeId } = await proposeControlChange(web.db, {
      kind: 'limits.set',
      params: { maxOrderOz: null, dailyCapOz: '10' },
      author,
      context: {},
    })
    expect(await codeOf(confirmControlChange(web.db, { changeId, confirmer, context: production }))).toBe(
      'validation_failed',
    )
    const [row] = await t.db.execute<{ status: string }>(sql`select status from control_changes`)
    expect(row?.status).toBe('awaiting_second_admin')
    const set = await proposeControlChange(web.db, {
      kind: 'limits.set',
      params: { maxOrderOz: '10', dailyCapOz: '100' },
      author,
      context: production,
    })
    expect(await codeOf(confirmControlChange(web.db, { changeId: set.changeId, confirmer, context: production }))).toBe(
      'ok',
    )
  })
})

describe('a stored change', () => {
  it('whose params no longer parse is refused at confirm (422), nothing applied; an unknown kind too', async () => {
    const [bad] = await t.db.execute<{ id: string }>(sql`
      insert into control_changes (kind, params, author_email) values ('limits.set', '{"maxOrderOz": 5}', ${author.email})
      returning id`)
    const [unknown] = await t.db.execute<{ id: string }>(sql`
      insert into control_changes (kind, params, author_email) values ('approvers.set', '{}', ${author.email})
      returning id`)
    for (const changeId of [bad?.id ?? '', unknown?.id ?? '']) {
      expect(await codeOf(confirmControlChange(web.db, { changeId, confirmer, context: {} }))).toBe('validation_failed')
    }
    expect(await t.db.execute(sql`select 1 from mint_limits where max_order_wei is not null`)).toHaveLength(0)
  })

  it('the database refuses a change decided by its author', async () => {
    const { changeId } = await proposeControlChange(web.db, {
      kind: 'limits.set',
      params: { maxOrderOz: '1', dailyCapOz: '2' },
      author,
      context: {},
    })
    const wrote = await web.db
      .execute(sql`update control_changes set status = 'applied', decided_by_email = ${author.email},
        decided_at = now() where id = ${changeId}`)
      .then(
        () => 'ok',
        (e: unknown) => String((e as { cause?: { constraint_name?: string } }).cause?.constraint_name ?? e),
      )
    expect(wrote).toBe('control_changes_not_self_decided')
  })
})
