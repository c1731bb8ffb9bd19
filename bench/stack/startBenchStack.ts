import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import postgres from 'postgres'
import { freePort } from '../../scripts/stack/freePort'
import { type PreparedRelease, prepareRelease } from '../../scripts/stack/prepareRelease'
import { type ManagedChild, stopLeftovers, type Tracked, writePidFile } from '../../scripts/stack/processes'
import { startStack } from '../../scripts/stack/startStack'
import { sleep } from '../system/clock'
import type { ProcessGroup, ProcessGroupsSource } from '../system/processGroups'
import { configurePostgres } from './configurePostgres'
import { startKmsProcess } from './startKmsProcess'
import { startSqsProcess } from './startSqsProcess'

export type StartBenchStackParameters = {
  root: string
  /** wiped first: every run starts from an empty database and a new chain */
  dataDir: string
  /** KMS keys the stack creates (the worker holds all of them; the bench activates some) */
  signers: number
  /** seconds between blocks on anvil */
  blockTime: number
  /** 'sqs': the embedded SQS endpoint in its own process (group `sqs`), web and workers with QUEUE_TRANSPORT=sqs */
  queueTransport?: 'postgres' | 'sqs'
  log: (line: string) => void
}

export type BenchStack = {
  url: string
  /** the live settings of the stack (DATABASE_URL, RPC_URL, TOKEN_ADDRESS, KMS_*, ...) */
  env: Record<string, string>
  dataDir: string
  /** where the web's and the worker's CPU profiles land (SIGUSR2 toggles them) */
  profileDirs: { web: string; worker: string }
  childLogFile: string
  pids: { web: number; postgres: number; anvil: number; kms: number; sqs: number }
  workers: ManagedChild[]
  /** starts one worker process (with `extraEnv`, e.g. tracing) and waits until it has registered and started */
  startWorker: (extraEnv?: Record<string, string>) => Promise<ManagedChild>
  /** stops the web and starts it again with `extraEnv` (tracing is read at start); the meters follow the new process */
  restartWeb: (extraEnv?: Record<string, string>) => Promise<void>
  /** stops every running worker (SIGTERM, as a deploy does) and waits for their exits */
  stopWorkers: () => Promise<void>
  /** what runs: the release as the images run it (prepareRelease) */
  release: PreparedRelease
  /** web, worker, postgres, anvil, kms, bench: for the CPU and memory meters */
  groups: ProcessGroupsSource
  /** extra groups (the no-op runner) join the meters while they live */
  extraGroups: ProcessGroup[]
  stop: () => Promise<void>
}

/**
 * The bench's own stack: startStack (embedded Postgres, anvil, token, dev users, the web's
 * production build) in a fresh data folder, with
 * - Postgres configured for commit timestamps and pg_stat_statements (configurePostgres);
 * - the KMS endpoint in its own process (startKmsProcess) with `signers` keys;
 * - a CPU-profile preload in the web and the workers, idle until the bench signals it;
 * - no worker at first: the intake is measured alone, workers start for the pipeline;
 * - the web and the workers as shipped (prepareRelease: the standalone server and
 *   worker.mjs with the Dockerfile's NODE_OPTIONS), not `next start` and tsx;
 * - no KMS Sign budget in the workers (KMS_SIGN_RATE=0, KMS_SIGN_RATE_PER_KEY=0): the
 *   local endpoint has no quota, and the bench measures the pipeline against the node's
 *   limit, not against an account's quota (a setting of each deployment).
 */
export async function startBenchStack(p: StartBenchStackParameters): Promise<BenchStack> {
  // a run killed with SIGKILL left its children: stop them (only if they still look like ours) before wiping
  const ownPids = `${p.dataDir}-pids.json`
  mkdirSync(p.dataDir, { recursive: true }) // stopLeftovers rewrites the pid file inside it
  await stopLeftovers(path.join(p.dataDir, 'pids.json'), p.log)
  await stopLeftovers(ownPids, p.log)
  rmSync(p.dataDir, { recursive: true, force: true })
  mkdirSync(p.dataDir, { recursive: true })
  const profileDirs = {
    web: path.join(p.dataDir, 'profiles', 'web'),
    worker: path.join(p.dataDir, 'profiles', 'worker'),
  }
  const childLogFile = path.join(p.dataDir, 'children.log')
  const preload = path.join(p.root, 'bench', 'profile', 'cpuProfilePreload.cjs')
  const nodeOptions = [process.env.NODE_OPTIONS, `--require ${preload}`].filter(Boolean).join(' ')

  p.log('building the release (scripts/build-release.ts --if-changed) and copying it')
  const release = await prepareRelease({
    root: p.root,
    into: path.join(p.dataDir, 'release'),
    log: (l) => p.log(`[release] ${l}`),
  })
  p.log('configuring Postgres (commit timestamps, pg_stat_statements)')
  await configurePostgres({ dataDir: path.join(p.dataDir, 'pg') })
  const kms = await startKmsProcess({ root: p.root, dataDir: path.join(p.dataDir, 'kms') })
  writePidFile(ownPids, [{ name: 'kms', pid: kms.child.child.pid ?? 0, cmd: 'kmsServerMain.ts' }])
  p.log(`KMS endpoint at ${kms.url} (own process)`)
  const sqs = p.queueTransport === 'sqs' ? await startSqsProcess({ root: p.root }) : undefined
  if (sqs) {
    writePidFile(ownPids, [
      { name: 'kms', pid: kms.child.child.pid ?? 0, cmd: 'kmsServerMain.ts' },
      { name: 'sqs', pid: sqs.child.child.pid ?? 0, cmd: 'sqsServerMain.ts' },
    ])
    p.log(`SQS endpoint at ${sqs.env.SQS_ENDPOINT} (own process)`)
  }
  const stopEndpoints = async () => {
    await sqs?.child.stop()
    await kms.child.stop()
  }

  let stack: Awaited<ReturnType<typeof startStack>>
  try {
    stack = await startStack({
      root: p.root,
      dataDir: p.dataDir,
      env: {
        KMS_ENDPOINT: kms.url,
        MINTDESK_SIGNERS: String(p.signers),
        ...(sqs ? { QUEUE_TRANSPORT: 'sqs', ...sqs.env } : {}),
      },
      port: await freePort(),
      web: true,
      workers: 0,
      blockTime: p.blockTime,
      childEnv: {
        NODE_OPTIONS: nodeOptions,
        MINTDESK_BENCH_PROFILE_DIR: profileDirs.web,
        KMS_SIGN_RATE: '0',
        KMS_SIGN_RATE_PER_KEY: '0',
      },
      childLogFile,
      release,
      log: (l) => p.log(`[stack] ${l}`),
    })
  } catch (error) {
    await stopEndpoints()
    writePidFile(ownPids, [])
    throw error
  }

  // written by startStack
  const tracked = JSON.parse(readFileSync(path.join(p.dataDir, 'pids.json'), 'utf8')) as Tracked[]
  const pidOf = (name: string) => tracked.find((t) => t.name === name)?.pid ?? 0
  const pids = {
    web: pidOf('web'),
    postgres: pidOf('postgres'),
    anvil: pidOf('anvil'),
    kms: kms.child.child.pid ?? 0,
    sqs: sqs?.child.child.pid ?? 0,
  }

  const sql = postgres(stack.env.DATABASE_ADMIN_URL as string, { max: 1, onnotice: () => {} })
  try {
    await sql`create extension if not exists pg_stat_statements`
  } catch (error) {
    await stack.stop()
    await stopEndpoints()
    throw error
  } finally {
    await sql.end({ timeout: 5 })
  }

  const extraGroups: ProcessGroup[] = []
  const running: ManagedChild[] = []
  const workerRoots = () => running.map((w) => w.child.pid ?? 0).filter((pid) => pid > 0 && isAlive(pid))
  const groups: ProcessGroupsSource = () => [
    { name: 'web', roots: [pids.web], tree: true },
    { name: 'worker', roots: workerRoots(), tree: true },
    { name: 'postgres', roots: [pids.postgres], tree: true },
    { name: 'anvil', roots: [pids.anvil], tree: true },
    { name: 'kms', roots: [pids.kms], tree: true },
    ...(sqs ? [{ name: 'sqs', roots: [pids.sqs], tree: true }] : []),
    { name: 'bench', roots: [process.pid], tree: false },
    ...extraGroups,
    // the event loops alone (the groups above include libuv's thread pool: crypto, DNS, fs)
    { name: 'web main thread', roots: [pids.web], tree: true, mainThread: true },
    { name: 'worker main thread', roots: workerRoots(), tree: true, mainThread: true },
  ]

  const startWorker = async (extraEnv: Record<string, string> = {}) => {
    const w = stack.startWorker({ MINTDESK_BENCH_PROFILE_DIR: profileDirs.worker, ...extraEnv })
    running.push(w)
    await waitForWorker({ databaseUrl: stack.env.DATABASE_ADMIN_URL as string, child: w })
    return w
  }
  const stopWorkers = async () => {
    await Promise.all(running.splice(0).map((w) => w.stop(35_000)))
  }

  return {
    url: stack.url,
    env: stack.env,
    dataDir: p.dataDir,
    profileDirs,
    childLogFile,
    pids,
    workers: running,
    startWorker,
    stopWorkers,
    restartWeb: async (extraEnv = {}) => {
      const web = await stack.restartWeb({ MINTDESK_BENCH_PROFILE_DIR: profileDirs.web, ...extraEnv })
      pids.web = web.child.pid ?? 0
    },
    release,
    groups,
    extraGroups,
    stop: async () => {
      await stack.stop()
      await stopEndpoints()
      writePidFile(ownPids, [])
    },
  }
}

function isAlive(pid: number): boolean {
  return existsSync(`/proc/${pid}`)
}

/** A worker is up when its heartbeat row exists (written after graphile-worker started), found by its process id. */
async function waitForWorker({ databaseUrl, child }: { databaseUrl: string; child: ManagedChild }): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const deadline = Date.now() + 90_000
    while (Date.now() < deadline) {
      if (child.child.exitCode !== null)
        throw new Error(`a worker exited with code ${child.child.exitCode} while starting`)
      const [row] = await sql<
        { n: number }[]
      >`select count(*)::int as n from workers where stopped_at is null and pid = ${child.child.pid ?? -1}`
      if ((row?.n ?? 0) >= 1) return
      await sleep(200)
    }
    throw new Error(`a worker (pid ${child.child.pid}) did not start within 90 s`)
  } finally {
    await sql.end({ timeout: 5 })
  }
}
