import { spawn } from 'node:child_process'
import path from 'node:path'
import postgres from 'postgres'
import { nowMs, sleep } from '../system/clock'
import { type Summary, summarize } from '../system/percentiles'
import type { ProcessGroup } from '../system/processGroups'

export type RunNoopPickupParameters = {
  root: string
  databaseUrl: string
  jobs: number
  perSecond: number
  /** as mintdesk's worker: WORKER_CONCURRENCY and WORKER_POLL_MS */
  concurrency: number
  pollMs: number
  /** the runner joins the CPU/memory meters while it lives */
  extraGroups: ProcessGroup[]
}

export type NoopPickupResult = { jobs: number; started: number; pickup: Summary }

/**
 * graphile-worker's own pickup on the same stack: the no-op runner (noopRunner.ts) in
 * its own process, jobs added one per transaction with graphile_worker.add_job at
 * `perSecond` (the pace of the paced pipeline run), pickup = the task's start minus the
 * commit timestamp of the transaction that added the job.
 */
export async function runNoopPickup(p: RunNoopPickupParameters): Promise<NoopPickupResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(p.root, 'bench', 'pickup', 'noopRunner.ts')], {
    cwd: p.root,
    env: {
      ...process.env,
      DATABASE_URL: p.databaseUrl,
      WORKER_CONCURRENCY: String(p.concurrency),
      WORKER_POLL_MS: String(p.pollMs),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const group: ProcessGroup = { name: 'noop runner', roots: [child.pid ?? 0], tree: true }
  p.extraGroups.push(group)
  const messages: Array<{ type: string; starts?: Array<[string, number]> }> = []
  const waiters: Array<() => void> = []
  child.on('message', (m: { type: string; starts?: Array<[string, number]> }) => {
    messages.push(m)
    for (const w of waiters.splice(0)) w()
  })
  const waitFor = async (type: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = messages.find((m) => m.type === type)
      if (found) return found
      if (child.exitCode !== null) throw new Error(`the no-op runner exited with code ${child.exitCode}`)
      if (Date.now() > deadline) throw new Error(`the no-op runner sent no '${type}' within ${timeoutMs} ms`)
      await Promise.race([new Promise<void>((r) => waiters.push(r)), sleep(200)])
    }
  }

  const sql = postgres(p.databaseUrl, { max: 1, onnotice: () => {} })
  try {
    await waitFor('ready', 60_000)
    await sleep(500)
    const added: Array<{ id: string; xid: string }> = []
    const t0 = nowMs()
    for (let i = 0; i < p.jobs; i++) {
      const wait = t0 + (i * 1000) / p.perSecond - nowMs()
      if (wait > 0) await sleep(wait)
      const [row] = await sql.begin(
        (tx) => tx<{ id: string; xid: string }[]>`
          select id::text as id, pg_current_xact_id()::text as xid from graphile_worker.add_job('bench_noop', '{}'::json)`,
      )
      if (row) added.push(row)
    }
    await sleep(1_500)
    child.send({ type: 'stop' })
    const { starts = [] } = await waitFor('result', 30_000)
    const commits = await sql<{ xid: string; at: number }[]>`
      select x as xid, extract(epoch from pg_xact_commit_timestamp(x::xid))::float8 * 1000 as at
      from unnest(${added.map((a) => a.xid)}::text[]) as x`
    const commitOf = new Map(commits.map((c) => [c.xid, c.at]))
    const startOf = new Map(starts)
    const pickup = added.flatMap((a) => {
      const s = startOf.get(a.id)
      const c = commitOf.get(a.xid)
      return s !== undefined && c !== undefined ? [s - c] : []
    })
    return { jobs: added.length, started: starts.length, pickup: summarize(pickup) }
  } finally {
    await sql.end({ timeout: 5 })
    if (child.exitCode === null) child.kill('SIGTERM')
    p.extraGroups.splice(p.extraGroups.indexOf(group), 1)
  }
}
