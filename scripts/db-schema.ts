// npm run db:schema: db/schema.sql written anew from a freshly migrated database (an embedded
// Postgres of its own, in a temporary folder, removed after). Run it after adding a migration,
// and commit the file with it: db/schema.int.test.ts fails while the two disagree.
//   npm run db:schema              writes db/schema.sql
//   npm run db:schema -- --out F   writes F instead
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { migrate } from '../db/migrate'
import { dumpSchema } from './db/dumpSchema'
import { startPostgres } from './stack/postgres'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true })
const out = path.resolve(values.out ?? path.join(root, 'db', 'schema.sql'))

const dir = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-schema-'))
// as root the server runs as 'postgres', which must reach the folder (mkdtemp makes it 0700)
chmodSync(dir, 0o755)
const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), ephemeral: true, database: 'mintdesk_schema' })
try {
  const url = pg.adminUrl('mintdesk_schema')
  await migrate({ databaseUrl: url })
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    writeFileSync(out, await dumpSchema(sql))
  } finally {
    await sql.end({ timeout: 5 })
  }
  console.log(`wrote ${path.relative(process.cwd(), out) || out}`)
} finally {
  await pg.stop()
  rmSync(dir, { recursive: true, force: true })
}
