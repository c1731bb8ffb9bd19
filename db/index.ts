import { getConfig } from '@/lib/config/getConfig'
import { createDb, type DbClient } from './client'

export * from './client'

const globalForDb = globalThis as unknown as { mintdeskDb?: DbClient }

/** The process-wide database client (one pool per process, kept across hot reloads). */
export function getDb(): DbClient {
  if (!globalForDb.mintdeskDb) {
    const config = getConfig()
    globalForDb.mintdeskDb = createDb({ url: config.databaseUrl, max: config.databasePoolMax })
  }
  return globalForDb.mintdeskDb
}
