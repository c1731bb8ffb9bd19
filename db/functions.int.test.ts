import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppFunction, listAppFunctions } from '@/scripts/db/listAppFunctions'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'

// db/functions holds the current definition of every SQL function the migrations leave in
// schema public, one file per function named after it. The two are held to each other: a
// database the migrations made (A) against one the migrations made and then every file ran
// on (B). A file that says other than the migrations changes B's function (or adds an
// overload A lacks), so pg_get_functiondef differs; a function without a file, or a file
// without a function, is named. A function changes by a new migration that copies its file.

const FUNCTIONS_DIR = path.join(import.meta.dirname, 'functions')

/** What keeps the files of `dir` from being the migrations' functions; empty when they agree. */
async function checkFunctionFiles(migrated: readonly AppFunction[], dir: string): Promise<string[]> {
  const problems: string[] = []
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  const made = new Set(migrated.map((f) => f.name))
  for (const f of files) {
    const name = f.replace(/\.sql$/, '')
    if (!made.has(name)) problems.push(`db/functions/${f}: the migrations make no function ${name} in schema public`)
  }
  const named = new Set(files.map((f) => f.replace(/\.sql$/, '')))
  for (const name of [...made].sort()) {
    if (!named.has(name)) problems.push(`public.${name}: the migrations make it, db/functions/${name}.sql is missing`)
  }

  const b = await createTestDatabase({ max: 1 })
  try {
    for (const f of files) {
      try {
        await b.sql.unsafe(readFileSync(path.join(dir, f), 'utf8'))
      } catch (error) {
        problems.push(`db/functions/${f} does not run on the migrated schema: ${(error as Error).message}`)
      }
    }
    const after = new Map((await listAppFunctions(b.sql)).map((f) => [f.identity, f]))
    const before = new Map(migrated.map((f) => [f.identity, f]))
    for (const [identity, fn] of after) {
      const was = before.get(identity)
      if (!was) problems.push(`db/functions/${fn.name}.sql makes ${identity}, which the migrations do not`)
      else if (was.definition !== fn.definition)
        problems.push(`db/functions/${fn.name}.sql differs from what the migrations leave: ${firstDifference(was, fn)}`)
    }
  } finally {
    await b.drop()
  }
  return problems
}

function firstDifference(migrated: AppFunction, file: AppFunction): string {
  const a = migrated.definition.split('\n')
  const b = file.definition.split('\n')
  const i = a.findIndex((line, n) => line !== b[n])
  const at = i === -1 ? a.length : i
  return `line ${at + 1} of its definition, migrations: ${JSON.stringify(a[at] ?? '')}, file: ${JSON.stringify(b[at] ?? '')}`
}

describe('db/functions against the migrations', () => {
  let a: TestDatabase
  let migrated: AppFunction[]
  let scratch: string

  beforeAll(async () => {
    a = await createTestDatabase({ max: 1 })
    migrated = await listAppFunctions(a.sql)
    scratch = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-functions-'))
  })
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true })
    await a.drop()
  })

  /** a copy of db/functions to plant a drift in */
  const copy = (name: string) => {
    const dir = path.join(scratch, name)
    cpSync(FUNCTIONS_DIR, dir, { recursive: true })
    return dir
  }

  it('has one file per function of schema public, each the definition the migrations leave', async () => {
    expect(migrated.map((f) => f.name)).toContain('create_mint_order')
    const problems = await checkFunctionFiles(migrated, FUNCTIONS_DIR)
    expect(problems, 'change a function by a new migration that copies its db/functions file').toEqual([])
  })

  it('one function per name: a file names a function, not an overload', () => {
    const names = migrated.map((f) => f.name)
    expect(names).toEqual([...new Set(names)])
  })

  it('fails on a file edited without a migration (a planted drift in a copy)', async () => {
    const dir = copy('edited')
    const file = path.join(dir, 'recent_mints_wei.sql')
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace("interval '24 hours'", "interval '25 hours'"))
    expect(readFileSync(file, 'utf8')).not.toBe(text)
    expect(await checkFunctionFiles(migrated, dir)).toEqual([
      expect.stringMatching(/^db\/functions\/recent_mints_wei\.sql differs from what the migrations leave: line \d+/),
    ])
  })

  it('fails on a missing file, a file of no function, and a file that adds an overload', async () => {
    const dir = copy('missing')
    rmSync(path.join(dir, 'record_mint_event.sql'))
    writeFileSync(
      path.join(dir, 'not_migrated.sql'),
      'create or replace function public.not_migrated() returns int language sql as $$ select 1 $$;\n',
    )
    const file = path.join(dir, 'on_mint_awaiting_approval.sql')
    writeFileSync(file, readFileSync(file, 'utf8').replace('(p_order_id uuid)', '(p_order_id text)'))
    const problems = await checkFunctionFiles(migrated, dir)
    expect(problems).toEqual(
      expect.arrayContaining([
        'db/functions/not_migrated.sql: the migrations make no function not_migrated in schema public',
        'public.record_mint_event: the migrations make it, db/functions/record_mint_event.sql is missing',
        'db/functions/not_migrated.sql makes public.not_migrated(), which the migrations do not',
        'db/functions/on_mint_awaiting_approval.sql makes public.on_mint_awaiting_approval(text), which the migrations do not',
      ]),
    )
  })
})
