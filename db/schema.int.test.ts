import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dumpSchema, SCHEMA_DUMP_HEADER } from '@/scripts/db/dumpSchema'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'

// db/schema.sql is the schema public that the migrations leave (graphile-worker's
// __tests__/schema.sql idea): a migration that changes the schema changes the file in the
// same commit, so a review reads the change as the database will have it.

const SCHEMA_FILE = path.join(import.meta.dirname, 'schema.sql')

describe('db/schema.sql', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase({ max: 1 })
  })
  afterAll(async () => {
    await t.drop()
  })

  it('is the schema of a freshly migrated database', async () => {
    const migrated = await dumpSchema(t.sql)
    const committed = readFileSync(SCHEMA_FILE, 'utf8')
    expect(
      committed,
      'db/schema.sql is not the migrated schema: run `npm run db:schema` and commit db/schema.sql with the migration',
    ).toBe(migrated)
  })

  it('shows a change of the schema: a column, an index, a grant, a function body', async () => {
    const before = await dumpSchema(t.sql)
    expect(before.startsWith(SCHEMA_DUMP_HEADER)).toBe(true)
    await t.sql.unsafe(`
      alter table public.workers add column probe int not null default 1;
      create index workers_probe_idx on public.workers (probe);
      grant delete on public.workers to mintdesk_web;
      create or replace function public.recent_mints_wei(p_exclude_order_id uuid default null) returns numeric
        language sql stable set search_path = public, pg_temp as $fn$ select 0::numeric $fn$;`)
    const after = await dumpSchema(t.sql)
    expect(after).toContain('    probe integer DEFAULT 1 NOT NULL')
    expect(after).toContain('CREATE INDEX workers_probe_idx ON public.workers USING btree (probe);')
    expect(after).toContain('GRANT SELECT, DELETE ON TABLE public.workers TO mintdesk_web;')
    expect(after).toContain('select 0::numeric')
    expect(after).not.toBe(before)
  })
})
