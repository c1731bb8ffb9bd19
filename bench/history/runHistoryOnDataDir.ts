import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { DEV_DATABASE_PASSWORDS } from '../../cli/config/devDatabasePasswords'
import { migrate } from '../../db/migrate'
import { startPostgres } from '../../scripts/stack/postgres'
import { type HistoryResult, runHistory } from './runHistory'

export type RunHistoryOnDataDirParameters = {
  /** where the embedded Postgres keeps the year (`pg` inside it): empty, or seeded by an earlier run */
  dataDir: string
  /** 1 = a year of a busy desk; used only when the directory holds no seed yet */
  scale: number
  iterations?: number
  log: (line: string) => void
}

/**
 * The history bench on an embedded Postgres of its own kept in `dataDir`: started, migrated (a run after a new
 * migration applies it to the seeded year: the before and after of a change), the year seeded unless it is there
 * already, every route measured (runHistory), the server stopped. A reused seed is named in the result.
 */
export async function runHistoryOnDataDir(p: RunHistoryOnDataDirParameters): Promise<HistoryResult> {
  const dataDir = path.resolve(p.dataDir)
  mkdirSync(dataDir, { recursive: true })
  const pg = await startPostgres({ dataDir: path.join(dataDir, 'pg'), database: 'history', log: p.log })
  try {
    await migrate({
      databaseUrl: pg.url,
      roles: { web: { password: DEV_DATABASE_PASSWORDS.web }, worker: { password: DEV_DATABASE_PASSWORDS.worker } },
    })
    const result = await runHistory({ databaseAdminUrl: pg.url, scale: p.scale, iterations: p.iterations, log: p.log })
    return result.seedSeconds === null ? { ...result, reusedDataDir: dataDir } : result
  } finally {
    await pg.stop()
  }
}
