import type { RenderSectionParameters } from '../runs/BenchRun'
import { cpuMsPer, num, p50p99, rate, ratio } from './format'

/** Section 3: the intake, worker idle then running, each beside the same transaction over raw SQL and the floor. */
export function renderIntake({ result: r, line, table }: RenderSectionParameters): void {
  const runs = [...r.intake.idle, ...r.intake.beside]
  line('## 3. Intake: `POST /api/gold/mint`')
  line()
  line(
    `autocannon, ${r.options.intakeSeconds} s per run, keep-alive connections = clients, every request with bars of its own; beside it the same transaction over raw SQL by as many clients (\`bench/intake/insertOrderRaw.ts\`, postgres.js, one connection each, named prepared statements): the database's limit; and the floor: the same request as text/plain (session, role and origin checks, then 415, no database). "Worker idle": no worker process; "worker running": one worker with every signer active, minting the orders as they come.`,
  )
  line()
  table(
    [
      'run',
      'clients',
      'req/s',
      'p50 / p99 ms',
      'vs raw SQL',
      'web CPU ms/req (event loop)',
      'Postgres CPU ms/req',
      'Postgres exec ms/order',
      'worker cores',
      'machine busy',
    ],
    runs.map((x) => {
      const sql = runs.find((y) => y.kind === 'sql' && y.clients === x.clients && y.label === x.label)
      return [
        `${x.kind} (${x.label})`,
        String(x.clients),
        rate(x.result.perSecond),
        p50p99(x.result.latency),
        x.kind === 'api' && sql ? num(ratio(x.result.perSecond, sql.result.perSecond), 2) : '-',
        x.kind === 'sql'
          ? '-'
          : `${num(cpuMsPer(x.cpu, 'web', x.result.ok), 2)} (${num(cpuMsPer(x.cpu, 'web main thread', x.result.ok), 2)})`,
        x.kind === 'floor' ? '-' : num(cpuMsPer(x.cpu, 'postgres', x.result.ok), 2),
        x.kind === 'floor' ? '-' : num(x.statements.totalMs / Math.max(1, x.result.ok), 2),
        num(x.cpu.byGroup.worker ?? 0, 2),
        `${num(x.cpu.machineBusy, 2)} / ${x.cpu.cores}`,
      ]
    }),
  )
  const failed = runs.filter((x) => x.result.failed > 0)
  if (failed.length === 0) return
  line(
    `Refused or failed requests: ${failed.map((x) => `${x.kind} (${x.label}) c=${x.clients}: ${x.result.failed} ${'statuses' in x.result ? JSON.stringify(x.result.statuses) : ''}`).join('; ')}.`,
  )
  line()
}
