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
import { loadConfig } from '../lib/config/loadConfig'
import { completeJobs } from '../lib/jobs/completeJobs'
import { TASK } from '../lib/jobs/jobKeys'
import { liveJobsSql } from '../lib/jobs/liveJobsSql'
import { devAccountAt } from '../lib/keys/devKeys'
import { releaseBars } from '../lib/vault/releaseBars'
import { createMinterReader } from '../lib/web/approvals/MinterReader'
import { DEV_ADMIN_EMAIL, DEV_STAFF_EMAIL } from '../lib/web/auth/seedDevUsers'
import { MINT_REQUEST_ROLES } from '../lib/web/mint/mintRequestRoles'
import { getKmsAddressOrThrow } from '../scripts/stack/getKmsAddressOrThrow'
import { createKmsClient } from '../worker/signer/createKmsClient'
import { type AuditExportResult, runAuditExport } from './audit/runAuditExport'
import { createJsonPoster } from './http/createJsonPoster'
import { signIn } from './http/signIn'
import { createMintBodies, stockMintBodies } from './intake/createMintBodies'
import { runHttpLoad } from './intake/runHttpLoad'
import { type IntakeRun, MINT_PATH, runIntake } from './intake/runIntake'
import { type NoopPickupResult, runNoopPickup } from './pickup/runNoopPickup'
import { activateSigners } from './pipeline/activateSigners'
import { createOrderApprover } from './pipeline/createOrderApprover'
import { createRedemptionApprover } from './pipeline/createRedemptionApprover'
import { type BurnDrainResult, runBurnDrain } from './pipeline/runBurnDrain'
import { runChainBaselines } from './pipeline/runChainBaselines'
import { type DrainResult, runDrain } from './pipeline/runDrain'
import { type NotificationBacklogResult, runNotificationBacklog } from './pipeline/runNotificationBacklog'
import { type OrderBatchResult, runOrderBatch } from './pipeline/runOrderBatch'
import type { RawLimitResult } from './pipeline/runRawLimit'
import type { SequentialLoopResult } from './pipeline/runSequentialLoop'
import { runSqsDrain, type SqsDrainResult } from './pipeline/runSqsDrain'
import { runTracingComparison, type TracingComparison } from './pipeline/runTracingComparison'
import { waitForQuietPipeline } from './pipeline/waitForQuietPipeline'
import { type CpuProfileSummary, summarizeCpuProfile } from './profile/summarizeCpuProfile'
import { toggleCpuProfiles } from './profile/toggleCpuProfiles'
import type { PreviousCpuPerOrder } from './report/readPreviousCpuPerOrder'
import { type BenchStack, startBenchStack } from './stack/startBenchStack'
import { sleep } from './system/clock'
import { startCpuTimeline } from './system/startCpuTimeline'
import { type GroupMemory, startMemorySampler } from './system/startMemorySampler'
import { type BarListImportResult, runBarListImport } from './vault/runBarListImport'

export type BenchOptions = {
  /** orders per drain (and transactions of each raw-limit run) */
  orders: number
  signerCounts: number[]
  /** worker processes of the scaling table */
  workerCounts: number[]
  /** clients of the intake runs (the issue's 32; more than one value: one row each) */
  concurrencies: number[]
  intakeSeconds: number
  /** the sequential loop's transactions (one signer: the seed's design, one row) */
  seqTxs: number
  /** the paced run's length at half the measured capacity */
  pacedSeconds: number
  submitConcurrency: number
  noopJobs: number
  /** profile the web (an extra intake run) and the worker (an extra batch) */
  profile: boolean
  /** bars of the bar-list import row (0: not measured) */
  barListBars: number
  /** rows of the audit-export row (0: not measured) */
  auditRows: number
  /** seconds between blocks on anvil */
  blockTime: number
  /**
   * the SQS transport's row: orders of the 1 signer x 1 worker drain
   * on a second stack with QUEUE_TRANSPORT=sqs (0: not measured)
   */
  sqsOrders: number
  /** the tracing comparison: orders of each drain with tracing off and on (0: not measured) */
  tracingOrders: number
  /** redemptions of the burn drain, 1 signer x 1 worker (0: not measured) */
  burns: number
  quick: boolean
}

export type MachineInfo = { cpus: number; cpuModel: string; memoryGb: number; node: string; os: string }

export type WorkerSettings = {
  concurrency: number
  pollMs: number
  confirmPollMs: number
  confirmations: number
  sendBatch: number
}

/** the image's runtime variables of each process (NODE_OPTIONS, MALLOC_ARENA_MAX), as `K=V` words */
export type ReleaseInfo = { sourceHash: string; built: boolean; workerEnv: string; webEnv: string }

export type PacedRun = OrderBatchResult & { capacity: number; perSecond: number }

/**
 * The same path slow enough that each order is a batch of its own and none waits for another: the path's own length,
 * without the queueing of the paced run
 */
export type FloorRun = OrderBatchResult & { perSecond: number }

/** orders per second of the floor run */
const FLOOR_PER_SECOND = 5

export type BenchResult = {
  options: BenchOptions
  startedAt: Date
  /** the whole run, stop included: set by the caller (scripts/bench.ts) once runBench returned */
  seconds: number
  machine: MachineInfo
  worker: WorkerSettings
  release: ReleaseInfo
  stackBootSeconds: number
  intake: { idle: IntakeRun[]; beside: IntakeRun[] }
  /** the node's raw limit, per signer count of the targets (1 and the most) */
  raw: Array<RawLimitResult & { signers: number }>
  sequential: SequentialLoopResult
  drains: DrainResult[]
  /** the burn drain, 1 signer x 1 worker, beside the mint drains */
  burn?: BurnDrainResult
  paced?: PacedRun
  floor?: FloorRun
  /** the notifications each run left, sent before the next measured run (one window each) */
  notifications?: NotificationBacklogResult[]
  noop?: NoopPickupResult
  /** peaks over everything before the bar-list import (which has its own row) */
  memory: Record<string, GroupMemory>
  profiles: { web?: CpuProfileSummary; worker?: CpuProfileSummary; workerBatch?: OrderBatchResult }
  barListImport?: BarListImportResult
  auditExport?: AuditExportResult
  /** the SQS transport's drain, 1 signer x 1 worker, on its own stack */
  sqs?: SqsDrainResult
  /** the same drain and intake with tracing off and on */
  tracing?: TracingComparison
  /** the report this run replaces: its drain CPU per order, shown beside this run's (set by scripts/bench.ts) */
  previous?: PreviousCpuPerOrder
}

export type RunBenchParameters = { root: string; options: BenchOptions; log: (line: string) => void }

/**
 * Everything `npm run bench` measures (docs/decisions/032-bench-measures-shipped-build.md): the main stack start to
 * stop, then the SQS transport's row on a second stack of its own (QUEUE_TRANSPORT is read at
 * start), booted once the first is stopped so that they never share the machine.
 */
export async function runBench(p: RunBenchParameters): Promise<BenchResult> {
  const result = await runMainStack(p)
  if (p.options.sqsOrders > 0)
    result.sqs = await runSqsDrain({
      root: p.root,
      orders: p.options.sqsOrders,
      submitConcurrency: p.options.submitConcurrency,
      blockTime: p.options.blockTime,
      log: p.log,
    })
  return result
}

async function runMainStack({ root, options: o, log }: RunBenchParameters): Promise<BenchResult> {
  const startedAt = new Date()
  const t0 = performance.now()
  const maxSigners = Math.max(...o.signerCounts)
  const stack = await startBenchStack({
    root,
    dataDir: path.join(root, '.data', 'bench'),
    signers: maxSigners,
    blockTime: o.blockTime,
    log,
  })
  const stackBootSeconds = (performance.now() - t0) / 1000
  log(`stack up in ${stackBootSeconds.toFixed(0)} s: ${stack.url} (logs: ${stack.childLogFile})`)
  const stopOnSignal = () => void stack.stop().then(() => process.exit(130))
  process.once('SIGINT', stopOnSignal)
  process.once('SIGTERM', stopOnSignal)

  const memory = startMemorySampler({ groups: stack.groups })
  const timeline = startCpuTimeline({ groups: stack.groups })
  const sql = postgres(env(stack, 'DATABASE_ADMIN_URL'), { max: 2, onnotice: () => {} })
  try {
    const session = await signIn({
      baseUrl: stack.url,
      email: DEV_STAFF_EMAIL,
      password: env(stack, 'DEV_STAFF_PASSWORD'),
    })
    const [staff] = await sql<
      { id: string; session_version: number }[]
    >`select id::text as id, session_version from users where email = ${DEV_STAFF_EMAIL}`
    if (!staff) throw new Error('the dev staff user is missing')
    // the raw SQL orders as the signed-in staff user, checked as the intake checks it
    const user = {
      id: staff.id,
      email: DEV_STAFF_EMAIL,
      sessionVersion: staff.session_version,
      // a session id of its own, never signed out (the statement checks it is not in revoked_sessions)
      sessionId: randomUUID(),
      allowedRoles: MINT_REQUEST_ROLES,
    }
    const recipients: Address[] = Array.from({ length: 16 }, () => privateKeyToAddress(generatePrivateKey()))
    const drainsPlanned = o.signerCounts.length * o.workerCounts.length
    // bars for every order of the run: 4 intake runs at up to ~1,500/s, the drains, the paced and profiled batches
    const tracingBars = o.tracingOrders > 0 ? 2 * o.tracingOrders + 2 * (o.intakeSeconds + 3) * 1500 : 0
    const capacity = Math.ceil(
      (o.concurrencies.length + 1) * 2 * o.intakeSeconds * 1500 + drainsPlanned * o.orders + 3000 + tracingBars,
    )
    const bodies = createMintBodies({ runId: `b${Date.now().toString(36)}`, recipients, capacity })
    await stockMintBodies(sql, bodies, log)
    const intakeArgs = {
      session,
      databaseUrl: env(stack, 'DATABASE_ADMIN_URL'),
      user,
      bodies,
      durationSec: o.intakeSeconds,
      groups: stack.groups,
      log,
    }

    // 1. the intake alone (no worker running), then the web's profile under the same load
    const idle = await runIntake({
      ...intakeArgs,
      concurrencies: o.concurrencies,
      kinds: ['api', 'sql', 'floor'],
      label: 'worker idle',
    })
    const profiles: BenchResult['profiles'] = {}
    const c = Math.max(...o.concurrencies)
    if (o.profile) {
      log('profiling the web under the intake (not a measured run)')
      profiles.web = await withProfile({ stack, root, who: 'web', roots: [stack.pids.web] }, () =>
        runHttpLoad({
          session,
          path: MINT_PATH,
          connections: c,
          durationSec: Math.min(5, o.intakeSeconds),
          bodies,
          expectStatus: 202,
        }),
      )
    }
    await dropQueuedOrders(sql)

    // 2. the chain's baselines with keys of their own: the node's raw limit, the seed's sequential loop (one row), both
    // relaying GoldMinter.attestAndMint calls of approved baseline orders as the worker builds them
    const chainId = Number(env(stack, 'CHAIN_ID'))
    const rpcUrl = env(stack, 'RPC_URL')
    const tokenAddress = env(stack, 'TOKEN_ADDRESS') as Address
    const minterAddress = env(stack, 'MINTER_ADDRESS') as Address
    const chain = createChainClient({ rpcUrl, chainId, pollingMs: 50 })
    const kms = createKmsClient({ region: 'us-east-1', endpoint: env(stack, 'KMS_ENDPOINT') })
    const workerSigners = await Promise.all(
      env(stack, 'KMS_KEY_IDS')
        .split(',')
        .map((keyId) => getKmsAddressOrThrow(kms, { keyId })),
    )
    kms.destroy()
    const { raw, sequential } = await runChainBaselines({
      sql,
      chain,
      chainId,
      rpcUrl,
      tokenAddress,
      minterAddress,
      kmsEndpoint: env(stack, 'KMS_ENDPOINT'),
      recipients,
      maxSigners,
      orders: o.orders,
      seqTxs: o.seqTxs,
      log,
    })

    // 3. the drains: the scaling table (signers x worker processes); the 1-worker rows carry the targets
    const poster = createJsonPoster({ session, maxSockets: Math.max(64, o.submitConcurrency) })
    const approver = await createOrderApprover({
      sql,
      baseUrl: stack.url,
      env: stack.env,
      maxSockets: Math.max(64, o.submitConcurrency),
    })
    const drains: DrainResult[] = []
    let paced: PacedRun | undefined
    let floor: FloorRun | undefined
    const notifications: NotificationBacklogResult[] = []
    // the notifications the last run left (they run after the mint jobs), sent before the next measured run starts:
    // measured, and out of its way
    const sendNotificationBacklog = async (label: string) => {
      const n = await runNotificationBacklog({ sql, groups: stack.groups, timeoutMs: 420_000 })
      notifications.push(n)
      log(
        `notifications left by ${label}: ${n.emails} emails, ${n.webhooks} webhooks in ${n.seconds.toFixed(1)} s` +
          (n.settled ? '' : ` (${n.left} still queued at the timeout)`),
      )
    }
    try {
      // a worker registers its keys in \`signers\` when it starts: once, before the drains choose among them
      await stack.startWorker()
      await stack.stopWorkers()
      for (const workers of o.workerCounts) {
        for (const signers of o.signerCounts) {
          const previous = drains.at(-1)
          if (previous) {
            await stack.startWorker()
            await sendNotificationBacklog(`the drain of ${previous.signers} signer(s) x ${previous.workers} worker(s)`)
            await stack.stopWorkers()
          }
          drains.push(
            await runDrain({
              sql,
              poster,
              bodies,
              workerSigners,
              signers,
              workers,
              orders: o.orders,
              submitConcurrency: o.submitConcurrency,
              approver,
              startWorker: stack.startWorker,
              stopWorkers: stack.stopWorkers,
              timeline,
              timeoutMs: Math.max(120_000, o.orders * 300),
              log,
            }),
          )
        }
      }

      // 3b. the burn drain beside the mint drains: redemptions signed and queued, 1 signer x 1 worker
      let burn: BurnDrainResult | undefined
      if (o.burns > 0) {
        await stack.startWorker()
        await sendNotificationBacklog('the last drain')
        await stack.stopWorkers()
        const minter = createMinterReader({ client: chain, chainId, minterAddress })
        const redemptionApprover = await createRedemptionApprover({
          sql,
          baseUrl: stack.url,
          env: stack.env,
          minter,
          maxSockets: Math.max(64, o.submitConcurrency),
        })
        try {
          burn = await runBurnDrain({
            sql,
            chain,
            rpcUrl,
            chainId,
            tokenAddress,
            minterAddress,
            // anvil's dev accounts 1 to 4 (gas money, on the allowlist): the holders who redeem
            holders: [1, 2, 3, 4].map((i) => devAccountAt(i)),
            burns: o.burns,
            staff: { id: staff.id, email: DEV_STAFF_EMAIL },
            approver: redemptionApprover,
            approveConcurrency: o.submitConcurrency,
            workerSigners,
            startWorker: stack.startWorker,
            stopWorkers: stack.stopWorkers,
            timeline,
            timeoutMs: Math.max(120_000, o.burns * 300),
            log,
          })
        } finally {
          redemptionApprover.close()
        }
      }

      // 4. below capacity: paced at half the 1-signer, 1-worker drain rate, one worker running
      const base = drains.find(
        (d) => d.signers === Math.min(...o.signerCounts) && d.workers === Math.min(...o.workerCounts),
      )
      const capacity = base?.confirmedPerSecond ?? 10
      const perSecond = Math.max(1, Math.floor(capacity / 2))
      const count = Math.min(2000, Math.max(50, Math.round(perSecond * o.pacedSeconds)))
      await activateSigners(sql, { addresses: workerSigners.slice(0, base?.signers ?? 1) })
      await stack.startWorker()
      await sendNotificationBacklog(burn ? 'the burn drain' : 'the last drain')
      const batch = await runOrderBatch({
        sql,
        poster,
        approver,
        bodies,
        count,
        mode: { kind: 'paced', perSecond },
        timeoutMs: 120_000,
        groups: stack.groups,
      })
      paced = { ...batch, capacity, perSecond }
      log(
        `paced ${perSecond}/s (capacity ${capacity.toFixed(0)}/s): committed->broadcast p50 ${batch.committedToBroadcast.p50.toFixed(1)} ms p99 ${batch.committedToBroadcast.p99.toFixed(1)} ms, ` +
          `broadcast->confirmed p50 ${batch.broadcastToConfirmed.p50.toFixed(0)} ms p99 ${batch.broadcastToConfirmed.p99.toFixed(0)} ms`,
      )
      // 4b. the same path, each order a batch of its own: how long the path itself is
      const floorCount = Math.max(40, FLOOR_PER_SECOND * o.pacedSeconds)
      floor = {
        ...(await runOrderBatch({
          sql,
          poster,
          approver,
          bodies,
          count: floorCount,
          mode: { kind: 'paced', perSecond: FLOOR_PER_SECOND },
          timeoutMs: 120_000,
          groups: stack.groups,
        })),
        perSecond: FLOOR_PER_SECOND,
      }
      log(
        `floor ${FLOOR_PER_SECOND}/s: committed->broadcast p50 ${floor.committedToBroadcast.p50.toFixed(1)} ms p99 ${floor.committedToBroadcast.p99.toFixed(1)} ms`,
      )

      // 5. the intake with the worker running beside it (all signers, idle: the orders it takes wait for approval)
      await activateSigners(sql, { addresses: workerSigners.slice(0, maxSigners) })
      const beside = await runIntake({
        ...intakeArgs,
        concurrencies: [c],
        kinds: ['api', 'sql'],
        label: 'worker running',
        warmUp: false,
      })
      await waitForQuietPipeline(sql, { timeoutMs: 180_000, log })

      // 6. the worker's profile and memory under a batch (not a measured run)
      if (o.profile) {
        const n = Math.min(o.orders, 500)
        log(`profiling the worker under a burst of ${n} orders, ${maxSigners} signer(s) (not a measured run)`)
        const roots = stack.workers.map((w) => w.child.pid ?? 0)
        // its memory so far counts; from here on it holds the profiler's samples too, which no image ships
        memory.exclude(roots)
        profiles.worker = await withProfile({ stack, root, who: 'worker', roots }, async () => {
          profiles.workerBatch = await runOrderBatch({
            sql,
            poster,
            approver,
            bodies,
            count: n,
            mode: { kind: 'burst', concurrency: o.submitConcurrency },
            timeoutMs: 120_000,
            groups: stack.groups,
          })
        })
      }
      await sendNotificationBacklog('the paced runs, the intake beside the worker and the profiled batch')
      await stack.stopWorkers()

      // 6b. the cost of tracing: the same drain (1 signer, 1 worker) and intake, OTLP export off then on
      const tracing =
        o.tracingOrders > 0
          ? await runTracingComparison({
              stack,
              sql,
              poster,
              approver,
              bodies,
              workerSigners,
              orders: o.tracingOrders,
              submitConcurrency: o.submitConcurrency,
              timeline,
              intake: { ...intakeArgs, clients: c },
              dropQueuedOrders: () => dropQueuedOrders(sql),
              log,
            })
          : undefined

      // 7. graphile-worker's own pickup on the same stack (no mintdesk worker running)
      const noop =
        o.noopJobs > 0
          ? await runNoopPickup({
              root,
              databaseUrl: env(stack, 'DATABASE_ADMIN_URL'),
              jobs: o.noopJobs,
              perSecond: 20,
              concurrency: 8,
              pollMs: 1000,
              extraGroups: stack.extraGroups,
            })
          : undefined

      // 8. memory: the peaks over everything above; then the bar-list import, whose peak is its own row
      const peaks = memory.stop()
      const admin = await signIn({
        baseUrl: stack.url,
        email: DEV_ADMIN_EMAIL,
        password: env(stack, 'DEV_ADMIN_PASSWORD'),
      })
      const barListImport =
        o.barListBars > 0
          ? await runBarListImport({
              session: admin,
              runId: bodies.runId,
              bars: o.barListBars,
              groups: stack.groups,
              log,
            })
          : undefined
      const auditExport =
        o.auditRows > 0
          ? await runAuditExport({ sql, session: admin, rows: o.auditRows, groups: stack.groups, log })
          : undefined
      return {
        options: o,
        startedAt,
        seconds: 0,
        machine: machineInfo(),
        worker: workerSettings(stack.env),
        release: {
          sourceHash: stack.release.sourceHash,
          built: stack.release.built,
          workerEnv: imageEnvWords(stack.release.worker.env),
          webEnv: imageEnvWords(stack.release.web.env),
        },
        stackBootSeconds,
        intake: { idle, beside },
        raw,
        sequential,
        drains,
        burn,
        paced,
        floor,
        notifications,
        noop,
        memory: peaks,
        profiles,
        barListImport,
        auditExport,
        tracing,
      }
    } finally {
      poster.close()
      approver.close()
    }
  } finally {
    timeline.stop()
    memory.stop()
    await sql.end({ timeout: 5 })
    log('stopping the stack')
    await stack.stop()
    process.off('SIGINT', stopOnSignal)
    process.off('SIGTERM', stopOnSignal)
  }
}

/**
 * The intake's orders are not the pipeline's (they wait for approval, with no job): the mint_send jobs there are go,
 * and the orders are cancelled
 * before a worker starts, freeing their bars as a cancel does (lib/vault/releaseBars), so
 * the pipeline's runs find the inventory a real desk would have, not thousands of bars
 * held by cancelled orders.
 */
async function dropQueuedOrders(sql: postgres.Sql): Promise<void> {
  const db = drizzle(sql, { schema })
  const jobs = await db.execute<{ job_id: string }>(
    dsql`select l.job_id::text as job_id from ${liveJobsSql} l where l.task = ${TASK.mintSend}`,
  )
  await completeJobs(db, { jobIds: jobs.map((j) => BigInt(j.job_id)) })
  await db.transaction(async (tx) => {
    const cancelled = await tx.execute<{ id: string }>(
      dsql`update mint_orders set status = 'cancelled', updated_at = now()
        where status in ('pending', 'awaiting_approval') returning id::text as id`,
    )
    for (const { id } of cancelled) await releaseBars(tx, { orderId: id })
  })
}

/** The image's variables as `K=V` words (the local stack's own HOSTNAME left out). */
function imageEnvWords(env: Record<string, string>): string {
  return Object.entries(env)
    .filter(([k]) => k !== 'HOSTNAME')
    .map(([k, v]) => `${k}=${v.includes(' ') ? `"${v}"` : v}`)
    .join(' ')
}

function env(stack: BenchStack, key: string): string {
  const value = stack.env[key]
  if (!value) throw new Error(`the stack has no ${key}`)
  return value
}

/**
 * The worker's settings as the stack's children get them: their
 * environment read by lib/config, whose defaults fill the rest.
 */
function workerSettings(stackEnv: Record<string, string>): WorkerSettings {
  const config = loadConfig({ role: 'tool', env: { ...stackEnv, ...process.env } })
  return {
    concurrency: config.worker.concurrency,
    pollMs: config.worker.pollMs,
    confirmPollMs: config.worker.confirmPollMs,
    confirmations: config.confirmations,
    sendBatch: config.worker.sendBatch,
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
    return readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && statSync(path.join(dir, f)).mtimeMs >= since)
      .length
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
