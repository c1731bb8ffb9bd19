import type { BenchResult } from '../BenchResult'
import type { IntakeRun } from '../intake/runIntake'
import type { TargetResult } from './evaluateTargets'
import { machineAside, profileLines } from './evidenceLines'
import { cpuLine, cpuMsPer, num, rate, ratio } from './format'

/** Section 3's targets at the most clients: the API against raw SQL with the worker idle, and reported, running. */
export function intakeTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  const c = Math.max(...r.options.concurrencies)
  const intakePair = (runs: IntakeRun[]) => ({
    api: runs.find((x) => x.kind === 'api' && x.clients === c),
    sql: runs.find((x) => x.kind === 'sql' && x.clients === c),
  })
  const idle = intakePair(r.intake.idle)
  if (idle.api && idle.sql) {
    const q = ratio(idle.api.result.perSecond, idle.sql.result.perSecond)
    targets.push({
      name: `Intake at ${c} clients, worker idle: >= 0.5x the raw-SQL rate`,
      measured: `${rate(idle.api.result.perSecond)}/s vs ${rate(idle.sql.result.perSecond)}/s = ${num(q, 2)}`,
      pass: q >= 0.5,
      note:
        q >= 0.5
          ? undefined
          : intakeEvidence(
              r,
              idle.api,
              idle.sql,
              r.intake.idle.find((x) => x.kind === 'floor' && x.clients === c),
            ),
    })
  }
  const beside = intakePair(r.intake.beside)
  if (beside.api && beside.sql) {
    targets.push({
      name: `Intake at ${c} clients, worker running beside it (reported, same pair)`,
      measured: `${rate(beside.api.result.perSecond)}/s vs ${rate(beside.sql.result.perSecond)}/s = ${num(ratio(beside.api.result.perSecond, beside.sql.result.perSecond), 2)}`,
      pass: null,
    })
  }
  return targets
}

function intakeEvidence(
  r: BenchResult,
  api: IntakeRun,
  sql: IntakeRun,
  floor: IntakeRun | undefined,
): { bound: string; evidence: string[] } {
  const c = api.clients
  const webMs = cpuMsPer(api.cpu, 'web', api.result.ok)
  const loopMs = cpuMsPer(api.cpu, 'web main thread', api.result.ok)
  const apiPgMs = cpuMsPer(api.cpu, 'postgres', api.result.ok)
  const apiGenMs = cpuMsPer(api.cpu, 'bench', api.result.ok)
  const sqlPgMs = cpuMsPer(sql.cpu, 'postgres', sql.result.ok)
  const sqlClientMs = cpuMsPer(sql.cpu, 'bench', sql.result.ok)
  const apiCost = webMs + apiPgMs + apiGenMs
  const sqlCost = sqlPgMs + sqlClientMs
  const loop = api.cpu.byGroup['web main thread'] ?? 0
  return {
    bound:
      `CPU per order: through the API ${num(apiCost, 2)} ms (web ${num(webMs, 2)}, of it ${num(loopMs, 2)} on its event loop; Postgres ${num(apiPgMs, 2)}; load generator ${num(apiGenMs, 2)}) against ${num(sqlCost, 2)} ms over raw SQL (Postgres ${num(sqlPgMs, 2)}, client ${num(sqlClientMs, 2)}): ` +
      `on the same ${api.cpu.cores} cores that caps the intake at ~${num(sqlCost / apiCost, 2)} of the raw-SQL rate; the web's event loop was busy ${num(loop * 100, 0)}% (one loop cannot pass ~${rate(1000 / loopMs)}/s).` +
      machineAside(api.cpu),
    evidence: [
      `CPU during the API run at ${c} clients (cores): ${cpuLine(api.cpu)}.`,
      `CPU during the raw-SQL run at ${c} clients (cores): ${cpuLine(sql.cpu)}.`,
      `Postgres execution per accepted order (pg_stat_statements): ${num(api.statements.totalMs / Math.max(1, api.result.ok), 2)} ms in ${num(api.statements.calls / Math.max(1, api.result.ok), 1)} statements through the API, ${num(sql.statements.totalMs / Math.max(1, sql.result.ok), 2)} ms over raw SQL.`,
      ...(floor
        ? [
            `The framework's floor (session, role and origin checks, then 415) at ${c} clients: ${rate(floor.result.perSecond)}/s, ${num(cpuMsPer(floor.cpu, 'web', floor.result.ok), 2)} ms of web CPU per request.`,
          ]
        : []),
      ...profileLines('Web', r.profiles.web),
    ],
  }
}
