// npx tsx scripts/bench-history.ts [--scale 1] [--data-dir .data/bench-history] [--iterations 30]: the history
// bench on its own (bench/history/): an embedded Postgres in the data directory, migrated (a run after a new
// migration applies it to the seeded year: the before and after of a change), a year of history seeded once at the
// given scale, every admin list and search, page, the reserves API and the public lookup measured, the section
// printed in markdown.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { renderHistory } from '../bench/history/renderHistory'
import { runHistory } from '../bench/history/runHistory'
import { DEV_DATABASE_PASSWORDS } from '../cli/config/devDatabasePasswords'
import { migrate } from '../db/migrate'
import { startPostgres } from './stack/postgres'

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    'data-dir': { type: 'string', default: '.data/bench-history' },
    iterations: { type: 'string', default: '30' },
  },
})
const dataDir = path.resolve(values['data-dir'])
mkdirSync(dataDir, { recursive: true })
const log = (line: string) => console.error(line)
const pg = await startPostgres({ dataDir: path.join(dataDir, 'pg'), database: 'history', log })
try {
  await migrate({
    databaseUrl: pg.url,
    roles: { web: { password: DEV_DATABASE_PASSWORDS.web }, worker: { password: DEV_DATABASE_PASSWORDS.worker } },
  })
  const result = await runHistory({
    databaseAdminUrl: pg.url,
    scale: Number(values.scale),
    iterations: Number(values.iterations),
    log,
  })
  console.log(renderHistory(result))
} finally {
  await pg.stop()
}
