import postgres from 'postgres'
import type { SessionToCheck } from '../../lib/web/auth/ClaimedSessionUser'
import { nowMs } from '../system/clock'
import { type Summary, summarize } from '../system/percentiles'
import type { MintBodies } from './createMintBodies'
import { insertOrderRaw } from './insertOrderRaw'

export type RunRawSqlIntakeParameters = {
  databaseUrl: string
  /** concurrent loops, one connection each */
  clients: number
  durationMs: number
  bodies: MintBodies
  user: SessionToCheck
  prepare: boolean
}

export type LoadResult = {
  ok: number
  failed: number
  seconds: number
  perSecond: number
  latency: Summary
  /** why requests failed: the first line of each error message, with its count */
  failures?: Record<string, number>
}

/**
 * The database's limit for the intake: `clients` loops, each on its own connection,
 * running the intake's statement (insertOrderRaw: create_mint_order, one round trip) back to
 * back for `durationMs`.
 */
export async function runRawSqlIntake(p: RunRawSqlIntakeParameters): Promise<LoadResult> {
  const sql = postgres(p.databaseUrl, {
    max: p.clients,
    onnotice: () => {},
    connection: { application_name: 'bench-raw-sql' },
  })
  try {
    // open every connection before the clock starts
    await Promise.all(Array.from({ length: p.clients }, () => sql`select 1`))
    const latencies: number[] = []
    let failed = 0
    const failures: Record<string, number> = {}
    const started = nowMs()
    const deadline = started + p.durationMs
    await Promise.all(
      Array.from({ length: p.clients }, async () => {
        while (nowMs() < deadline) {
          const { request } = p.bodies.next()
          const t0 = nowMs()
          try {
            // autocommit, as the intake: the function is the transaction
            await insertOrderRaw(sql, { request, user: p.user, prepare: p.prepare })
            latencies.push(nowMs() - t0)
          } catch (error) {
            failed++
            const why =
              (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? 'unknown'
            failures[why] = (failures[why] ?? 0) + 1
          }
        }
      }),
    )
    const seconds = (nowMs() - started) / 1000
    return {
      ok: latencies.length,
      failed,
      seconds,
      perSecond: latencies.length / seconds,
      latency: summarize(latencies),
      ...(failed > 0 ? { failures } : {}),
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}
