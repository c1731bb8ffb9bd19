import type postgres from 'postgres'

export type CheckReadinessParameters = {
  /**
   * how many Drizzle migrations this build ships (`expectedMigrationCount()`); read lazily, a failure means not ready
   */
  expectedMigrations: () => number
  /** the whole check's budget: a dead database answers "not ready" this fast, not after the connect timeout */
  timeoutMs?: number
}

export type CheckReadinessReturnType = { ready: true; migrations: number } | { ready: false; reason: string }

/**
 * Is this process ready for traffic: the database answers `select 1` and has at least
 * the migrations this build expects (`drizzle.__drizzle_migrations`). Never throws; the
 * `reason` is safe to show (no connection strings, no driver messages).
 */
export async function checkReadiness(
  sql: postgres.Sql,
  { expectedMigrations, timeoutMs = 2_000 }: CheckReadinessParameters,
): Promise<CheckReadinessReturnType> {
  const deadline = Date.now() + timeoutMs

  const ping = await withDeadline(sql`select 1 as ok`, deadline)
  if (ping === timedOut) return { ready: false, reason: `database did not answer within ${timeoutMs} ms` }
  if (ping instanceof Error) return { ready: false, reason: 'database unavailable' }

  const counted = await withDeadline(
    sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`,
    deadline,
  )
  if (counted === timedOut) return { ready: false, reason: `database did not answer within ${timeoutMs} ms` }
  if (counted instanceof Error) return { ready: false, reason: 'migrations not applied' }
  const applied = counted[0]?.n ?? 0

  let expected: number
  try {
    expected = expectedMigrations()
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', msg: 'migration journal unreadable', err: String(error) }))
    return { ready: false, reason: 'migration journal unavailable' }
  }
  if (applied < expected) return { ready: false, reason: `migrations pending: ${applied} of ${expected} applied` }
  return { ready: true, migrations: applied }
}

const timedOut = Symbol('timedOut')

/** A postgres.js query: a promise with `cancel()`. */
type CancellableQuery<T> = PromiseLike<T> & { cancel?: () => unknown }

/** Resolves to the query's rows, its error, or `timedOut` (cancelling the query) at the deadline. */
async function withDeadline<T>(query: CancellableQuery<T>, deadline: number): Promise<T | Error | typeof timedOut> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), Math.max(0, deadline - Date.now()))
  })
  const settled = Promise.resolve(query).then(
    (rows) => rows,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  )
  try {
    const result = await Promise.race([settled, timeout])
    if (result === timedOut) query.cancel?.()
    return result
  } finally {
    clearTimeout(timer)
  }
}
