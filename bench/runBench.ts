import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql as dsql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import * as schema from '../db/schema'
import { createChainClient } from '../lib/chain/createChainClient'
import { createKmsClient } from '../lib/kms/createKmsClient'
import { completeJobs } from '../lib/jobs/completeJobs'
import { TASK } from '../lib/jobs/jobKeys'
import { liveJobsSql } from '../lib/jobs/liveJobsSql'
import { getKmsAddress } from '../lib/kms/getKmsAddress'
import { ozToWei } from '../lib/money/ozToWei'
import { DEV_ADMIN_EMAIL, DEV_STAFF_EMAIL } from '../lib/auth/seedDevUsers'
import { prepareMint } from '../worker/chain/prepareMint'
import { createJsonPoster } from './http/createJsonPoster'
import { signIn } from './http/signIn'
import { createMintBodies, stockMintBodies } from './intake/createMintBodies'
import { MINT_PATH, type IntakeReturnType, runIntake } from './intake/runIntake'
import { runHttpLoad } from './intake/runHttpLoad'
import { type NoopPickupResult, runNoopPickup } from './pickup/runNoopPickup'
import { createBaselineSigners } from './pipeline/createBaselineSigners'
import { type OrderBatchResult, runOrderBatch } from './pipeline/runOrderBatch'
import { type PipelineRun, runPipeline } from './pipeline/runPipeline'
import { type CpuProfileSummary, summarizeCpuProfile } from './profile/summarizeCpuProfile'
import { toggleCpuProfiles } from './profile/toggleCpuProfiles'
import { type BenchStack, startBenchStack } from './stack/startBenchStack'
import { sleep } from './system/clock'
import { type GroupMemory, startMemorySampler } from './system/startMemorySampler'
import { type BarListImportResult, runBarListImport } from './vault/runBarListImport'

export type BenchOptions = {
  /** orders per pipeline run (and raw-limit transactions) */
  orders: number
  intakeSeconds: number
  concurrencies: number[]
  signerCounts: number[]
  /** worker processes */
  workers: number
  seqPerSigner: number
  paced: { orders: number; perSecond: number }
  submitConcurrency: number
  noopJobs: number
  /** profile the web (an extra intake run) and the worker (an extra order batch) */
  profile: boolean
  /** seconds between blocks on anvil */
  blockTime: number
  quick: boolean
}

export type MachineInfo = { cpus: number; cpuModel: string; memoryGb: number; node: string; os: string }

export type WorkerSettings = { concurrency: number; pollMs: number; confirmPollMs: number; confirmations: number; processes: number }

export type BenchResult = {
  options: BenchOptions
  startedAt: Date
  /** the whole run, stop included: set by the caller (scripts/bench.ts) once runBench returned */
  seconds: number
  machine: MachineInfo
  worker: WorkerSettings
  stackBootSeconds: number
  /** a 100,000-bar list through the real route, before any load (the web's peak memory is the import's) */
  barListImport?: BarListImportResult
  intake: IntakeReturnType
  pipeline: PipelineRun[]
  noop: NoopPickupResult
  memory: Record<string, GroupMemory>
  profiles: { web?: CpuProfileSummary; worker?: CpuProfileSummary; workerBatch?: OrderBatchResult }
}

export type RunBenchParameters = { root: string; options: BenchOptions; log: (line: string) => void }

/** the bar-list row: the largest list API.md allows */
const BAR_LIST_BENCH_BARS = 100_000

/** Everything `npm run bench` measures, on its own stack, start to stop. */
export async function runBench({ root, options, log }: RunBenchParameters): Promise<BenchResult> {
  const startedAt = new Date()
  const t0 = performance.now()
  const dataDir = path.join(root, '.data', 'bench')
  const maxSigners = Math.max(...options.signerCounts)
  const stack = await startBenchStack({ root, dataDir, signers: maxSigners, blockTime: options.blockTime, log })
  const stackBootSeconds = (performance.now() - t0) / 1000
  log(`stack up in ${stackBootSeconds.toFixed(0)} s: ${stack.url} (logs: ${stack.childLogFile})`)
  const stopOnSignal = () => void stack.stop().then(() => process.exit(130))
  process.once('SIGINT', stopOnSignal)
  process.once('SIGTERM', stopOnSignal)

  const memory = startMemorySampler({ groups: stack.groups })
  const sql = postgres(env(stack, 'DATABASE_ADMIN_URL'), { max: 2, onnotice: () => {} })
  try {
    const session = await signIn({ baseUrl: stack.url, email: DEV_STAFF_EMAIL, password: env(stack, 'DEV_STAFF_PASSWORD') })
    const [staff] = await sql<{ id: string }[]>`select id::text as id from users where email = ${DEV_STAFF_EMAIL}`
    if (!staff) throw new Error('the dev staff user is missing')
    const user = { id: staff.id, email: DEV_STAFF_EMAIL }
    const recipients: Address[] = Array.from({ length: 16 }, () => privateKeyToAddress(generatePrivateKey()))
    const bodies = createMintBodies({ runId: `b${Date.now().toString(36)}`, recipients })

    // 0. a custodian's 100,000-bar list through the real route, the web otherwise idle
    const admin = await signIn({ baseUrl: stack.url, email: DEV_ADMIN_EMAIL, password: env(stack, 'DEV_ADMIN_PASSWORD') })
    const barListImport = await runBarListImport({ session: admin, runId: bodies.runId, bars: BAR_LIST_BENCH_BARS, groups: stack.groups, log })
    await stockMintBodies(sql, bodies, log)

    // 1. intake, no worker running
    const intake = await runIntake({
      session,
      databaseUrl: env(stack, 'DATABASE_ADMIN_URL'),
      user,
      bodies,
      concurrencies: options.concurrencies,
      durationSec: options.intakeSeconds,
      groups: stack.groups,
      log,
    })
    const profiles: BenchResult['profiles'] = {}
    if (options.profile) {
      log('profiling the web under the intake at the highest concurrency (not a measured run)')
      profiles.web = await withProfile({ stack, root, who: 'web', roots: [stack.pids.web] }, () =>
        runHttpLoad({ session, path: MINT_PATH, connections: Math.max(...options.concurrencies), durationSec: Math.min(5, options.intakeSeconds), bodies, expectStatus: 202 }),
      )
    }
    // the intake's orders are not the pipeline's: their jobs go before a worker starts
    const db = drizzle(sql, { schema })
    const intakeJobs = await db.execute<{ job_id: string }>(dsql`select l.job_id::text as job_id from ${liveJobsSql} l where l.task = ${TASK.mintSend}`)
    await completeJobs(db, { jobIds: intakeJobs.map((j) => BigInt(j.job_id)) })
    await sql`update mint_orders set status = 'cancelled', updated_at = now() where status = 'pending'`

    // 2. pipeline
    for (let i = 0; i < options.workers; i++) await stack.startWorker()
    log(`${options.workers} worker process(es) up`)
    const chainId = Number(env(stack, 'CHAIN_ID'))
    const rpcUrl = env(stack, 'RPC_URL')
    const tokenAddress = env(stack, 'TOKEN_ADDRESS') as Address
    const chain = createChainClient({ rpcUrl, chainId, pollingMs: 50 })
    const kms = createKmsClient({ region: 'us-east-1', endpoint: env(stack, 'KMS_ENDPOINT') })
    const workerSigners = await Promise.all(env(stack, 'KMS_KEY_IDS').split(',').map((keyId) => getKmsAddress(kms, { keyId })))
    kms.destroy()
    const baseline = await createBaselineSigners({ kmsEndpoint: env(stack, 'KMS_ENDPOINT'), rpcUrl, chainId, tokenAddress, count: maxSigners })
    const amountWei = ozToWei(bodies.next().request.amount)
    const first = baseline.accounts[0]
    if (!first) throw new Error('no baseline signer')
    const { gas } = await prepareMint(chain, { tokenAddress, from: first.address, to: recipients[0] as Address, amountWei, orderId: randomUUID() })
    const poster = createJsonPoster({ session, maxSockets: Math.max(64, options.submitConcurrency) })
    const pipeline: PipelineRun[] = []
    try {
      for (const signers of options.signerCounts) {
        pipeline.push(
          await runPipeline({
            sql,
            chain,
            rpcUrl,
            chainId,
            tokenAddress,
            workerSigners,
            baselineAccounts: baseline.accounts,
            signers,
            orders: options.orders,
            seqPerSigner: options.seqPerSigner,
            paced: options.paced,
            submitConcurrency: options.submitConcurrency,
            recipients,
            amountWei,
            gas,
            poster,
            bodies,
            groups: stack.groups,
            log,
          }),
        )
      }
      if (options.profile) {
        const count = Math.min(options.orders, 300)
        log(`profiling the worker under a burst of ${count} orders with ${maxSigners} signer(s) (not a measured run)`)
        let batch: OrderBatchResult | undefined
        profiles.worker = await withProfile({ stack, root, who: 'worker', roots: stack.workers.map((w) => w.child.pid ?? 0) }, async () => {
          batch = await runOrderBatch({ sql, poster, bodies, count, mode: { kind: 'burst', concurrency: options.submitConcurrency }, timeoutMs: 120_000, groups: stack.groups })
        })
        profiles.workerBatch = batch
      }
    } finally {
      poster.close()
      baseline.close()
    }

    // 3. graphile-worker's own pickup, same stack, same pace as the paced runs
    log('queue pickup: graphile-worker no-op runner')
    const noop = await runNoopPickup({
      root,
      databaseUrl: env(stack, 'DATABASE_ADMIN_URL'),
      jobs: options.noopJobs,
      perSecond: options.paced.perSecond,
      concurrency: workerSettings(options).concurrency,
      pollMs: workerSettings(options).pollMs,
      extraGroups: stack.extraGroups,
    })
    log(`queue pickup (no-op task): p50 ${noop.pickup.p50.toFixed(1)} ms, p99 ${noop.pickup.p99.toFixed(1)} ms (${noop.started}/${noop.jobs} started)`)

    // 4. memory: the peaks over everything above
    const peaks = memory.stop()
    return {
      options,
      startedAt,
      seconds: 0,
      machine: machineInfo(),
      worker: workerSettings(options),
      stackBootSeconds,
      barListImport,
      intake,
      pipeline,
      noop,
      memory: peaks,
      profiles,
    }
  } finally {
    memory.stop()
    await sql.end({ timeout: 5 })
    log('stopping the stack')
    await stack.stop()
    process.off('SIGINT', stopOnSignal)
    process.off('SIGTERM', stopOnSignal)
  }
}

function env(stack: BenchStack, key: string): string {
  const value = stack.env[key]
  if (!value) throw new Error(`the stack has no ${key}`)
  return value
}

/** The worker's settings as the stack's children get them (their environment, else the defaults of lib/config). */
function workerSettings(options: BenchOptions): WorkerSettings {
  const num = (key: string, def: number) => Number(process.env[key] ?? def)
  return {
    concurrency: num('WORKER_CONCURRENCY', 8),
    pollMs: num('WORKER_POLL_MS', 1000),
    confirmPollMs: num('CONFIRM_POLL_MS', 500),
    confirmations: num('CONFIRMATIONS', 1),
    processes: options.workers,
  }
}

/** Profiles `roots` (and their node children) while `work` runs; the busiest process's profile, summarised. */
async function withProfile(
  { stack, root, who, roots }: { stack: BenchStack; root: string; who: 'web' | 'worker'; roots: number[] },
  work: () => Promise<unknown>,
): Promise<CpuProfileSummary | undefined> {
  const since = Date.now()
  const dir = stack.profileDirs[who]
  const pids = toggleCpuProfiles({ roots })
  await sleep(300)
  await work()
  toggleCpuProfiles({ roots })
  for (let i = 0; i < 50 && countProfiles(dir, since) < pids.length; i++) await sleep(200)
  return summarizeCpuProfile({ dir, since, root })
}

function countProfiles(dir: string, since: number): number {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && statSync(path.join(dir, f)).mtimeMs >= since).length
  } catch {
    return 0
  }
}

function machineInfo(): MachineInfo {
  let osName = `${os.type()} ${os.release()}`
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    if (pretty) osName = `${pretty}, kernel ${os.release()}`
  } catch {}
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: osName,
  }
}
