import postgres from 'postgres'
import type { SessionToCheck } from '../../lib/web/auth/ClaimedSessionUser'
import type { ApiPostPath } from '../http/buildApiPost'
import type { HttpSession } from '../http/signIn'
import { sleep } from '../system/clock'
import { type PgStatementsWindow, readPgStatements, resetPgStatements } from '../system/pgStatements'
import type { ProcessGroupsSource } from '../system/processGroups'
import { type CpuUsage, startCpuMeter } from '../system/startCpuMeter'
import type { MintBodies } from './createMintBodies'
import { type HttpLoadResult, runHttpLoad } from './runHttpLoad'
import { type LoadResult, runRawSqlIntake } from './runRawSqlIntake'

/** the intake's route, a path of the contract (cli/apiClient/openapi.generated.ts) */
export const MINT_PATH = '/api/gold/mint' satisfies ApiPostPath

/**
 * The framework's floor: the intake's own request (same route, same body) sent as
 * text/plain. The route wrapper checks the session, the role and the same origin, then
 * answers 415 before it reads the body: no database call, no domain code
 * (lib/web/http/createRouteWrapper.ts, its order of checks). No route exists for the bench.
 */
export const FLOOR_REQUEST = { path: MINT_PATH, contentType: 'text/plain', expectStatus: 415 } as const

/** sql_unprepared: a diagnostic run, the raw SQL sent as Drizzle sends it (unnamed statements) */
export type IntakeKind = 'api' | 'sql' | 'floor' | 'sql_unprepared'

export type IntakeRun = {
  kind: IntakeKind
  clients: number
  /** 'worker idle' or 'worker running' (the worker minting beside the intake) */
  label: string
  result: LoadResult & { statuses?: Record<string, number> }
  cpu: CpuUsage
  /** Postgres's own execution time in this run (pg_stat_statements) */
  statements: PgStatementsWindow
}

export type RunIntakeParameters = {
  session: HttpSession
  databaseUrl: string
  /** the signed-in user of `session`, as the raw SQL checks it (its session version, the route's roles) */
  user: SessionToCheck
  bodies: MintBodies
  concurrencies: readonly number[]
  durationSec: number
  /** the runs at each concurrency, in this order (the diagnostic sql_unprepared only when asked) */
  kinds: readonly IntakeKind[]
  label: string
  /** warm the web's routes and the database first (the first intake of a run) */
  warmUp?: boolean
  groups: ProcessGroupsSource
  log: (line: string) => void
}

/**
 * The intake: at each concurrency, runs of the same length, back to back, of the given
 * kinds: POST /api/gold/mint (autocannon), the same transaction over raw SQL by as many
 * clients (the database's limit: bench/intake/insertOrderRaw.ts), and the floor
 * (FLOOR_REQUEST: session, role and origin checks, then 415: the framework's floor).
 * Each run is metered: CPU per process and Postgres's execution time. The web is warmed
 * up first (its routes load on first use).
 */
export async function runIntake(p: RunIntakeParameters): Promise<IntakeRun[]> {
  const sql = postgres(p.databaseUrl, { max: 1, onnotice: () => {} })
  const runs: IntakeRun[] = []
  try {
    if (p.warmUp !== false) {
      p.log('intake: warming up the web (both routes) and the database')
      await runHttpLoad({
        session: p.session,
        path: MINT_PATH,
        connections: 8,
        durationSec: 3,
        bodies: p.bodies,
        expectStatus: 202,
      })
      await runHttpLoad({ session: p.session, ...FLOOR_REQUEST, connections: 8, durationSec: 2, bodies: p.bodies })
      await runRawSqlIntake({
        databaseUrl: p.databaseUrl,
        clients: 8,
        durationMs: 1_000,
        bodies: p.bodies,
        user: p.user,
        prepare: true,
      })
    }

    const plan: Array<{ kind: IntakeKind; clients: number }> = p.concurrencies.flatMap((clients) =>
      p.kinds.map((kind) => ({ kind, clients })),
    )
    for (const { kind, clients } of plan) {
      await sleep(500)
      await resetPgStatements(sql)
      const meter = startCpuMeter({ groups: p.groups })
      const result: LoadResult | HttpLoadResult =
        kind === 'sql' || kind === 'sql_unprepared'
          ? await runRawSqlIntake({
              databaseUrl: p.databaseUrl,
              clients,
              durationMs: p.durationSec * 1000,
              bodies: p.bodies,
              user: p.user,
              prepare: kind === 'sql',
            })
          : await runHttpLoad({
              session: p.session,
              ...(kind === 'api' ? { path: MINT_PATH, expectStatus: 202 } : FLOOR_REQUEST),
              connections: clients,
              durationSec: p.durationSec,
              bodies: p.bodies,
            })
      const cpu = meter.stop()
      const statements = await readPgStatements(sql)
      runs.push({ kind, clients, label: p.label, result, cpu, statements })
      p.log(
        `intake (${p.label}) ${kind.padEnd(14)} c=${String(clients).padStart(2)}: ${result.perSecond.toFixed(0)}/s, p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms` +
          (result.failed > 0
            ? `, ${result.failed} failed ${'statuses' in result ? JSON.stringify(result.statuses) : ''}${'failures' in result && result.failures ? JSON.stringify(result.failures) : ''}`
            : ''),
      )
    }
    return runs
  } finally {
    await sql.end({ timeout: 5 })
  }
}
