import { readFileSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/postgres-js'
import { type Address, getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import * as schema from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { createRng } from '@/tests/helpers/createRng'
import { workerDeathCause } from '../attack/knownIssues'
import { createHttpApi } from './api'
import { startChaosStack } from './chaosStack'
import { checkInvariants, type InvariantReport, summarizeReport } from './checkInvariants'
import { freezeAndUnfreeze } from './compliance'
import { planOrders, stockPlannedOrders, submitAll, tallySubmits } from './orders'
import { type ProductionFaultsReport, runProductionFaults } from './productionFaults'
import { redeemOrders } from './redemptions'
import {
  type AnvilRestartReport,
  countEvents,
  crashAtFailpoints,
  type DeployReport,
  type FailpointCrash,
  type FuzzReport,
  type OutOfGasReport,
  type PostgresRestartReport,
  restartAnvilFromOlderState,
  restartPostgresUnderLoad,
  rollingDeploy,
  runOutOfGas,
  startFuzzer,
  waitForSettled,
} from './scenarios'
import { collectSecrets, findSecrets, readTexts, type SecretFinding } from './secrets'
import { startKiller, startSupervisor } from './workerPool'

/**
 * The long chaos run (`npm run test:chaos`): one fresh stack, then
 * 1. ORDERS orders through the HTTP API with WORKERS workers while a random worker is
 *    SIGKILLed every few seconds (a supervisor starts a new one, as ECS would), a fuzzer
 *    sends bad input all along, Postgres is stopped and started again under load, and
 *    anvil is SIGKILLed and restarted from a saved state a few seconds old;
 *    then (1b) holders redeem 20 confirmed orders and an address is frozen and unfrozen, under the same kills;
 * 2. a rolling deploy: every worker replaced and sent SIGTERM while jobs run;
 * 3. the signers out of gas money: dead letters, funding, one bulk retry by an admin;
 * then every invariant is checked on the database and the chain, and the logs and the
 * error bodies are searched for secrets. Returns the figures and every problem found.
 */

export type LongChaosOptions = {
  root: string
  dataDir: string
  webDir: string
  orders: number
  workers: number
  outOfGasOrders: number
  seed: number
  log: (line: string) => void
}

export type LongChaosResult = {
  seed: number
  ok: boolean
  problems: string[]
  durations: Record<string, number>
  intake: ReturnType<typeof tallySubmits>
  workers: {
    target: number
    started: number
    sigkills: number
    sigterms: number
    startFailures: number
    crashes: { name: string; code: number | null; signal: string | null; logFile: string }[]
  }
  postgres: PostgresRestartReport | null
  anvil: AnvilRestartReport | null
  deploy: DeployReport | null
  outOfGas: OutOfGasReport | null
  fuzz: FuzzReport | null
  invariants: InvariantReport | null
  events: Record<string, number>
  secrets: { scanned: number; bytes: number; findings: SecretFinding[] }
  knownIssues: { postgresJsNullSocketInDriver: number; workerDeaths: Record<string, number>; webUncaught: number }
  /** each production fault on its own batch of orders */
  production: ProductionFaultsReport | null
  /** a worker beside the pool SIGKILLs itself at each step of the batched send */
  failpoints: FailpointCrash[]
  /** phase 1b: redemptions and a freeze and unfreeze under kills */
  redemptions: RedemptionPhaseReport | null
}

/** What phase 1b did: the redemptions planned, signed and burned, and the compliance operations applied. */
export type RedemptionPhaseReport = {
  planned: number
  signed: number
  burned: number
  burnedEvents: number
  complianceApplied: number
  complianceProblems: number
}

/** confirmed orders redeemed whole in phase 1b */
export const REDEMPTIONS = 20

/** orders per production fault, baseline included */
export const PRODUCTION_FAULT_ORDERS = 30

/** The stop() of the stack a run has up, for an interrupted `npm run test:chaos` (Ctrl-C). */
export const activeStops = new Set<() => Promise<void>>()

export async function runLongChaos(o: LongChaosOptions): Promise<LongChaosResult> {
  const { log } = o
  const problems: string[] = []
  const durations: Record<string, number> = {}
  const t0 = Date.now()
  const rng = createRng(o.seed)
  const errorBodies: string[] = []
  const result: LongChaosResult = {
    seed: o.seed,
    ok: false,
    problems,
    durations,
    intake: tallySubmits([]),
    workers: { target: o.workers, started: 0, sigkills: 0, sigterms: 0, startFailures: 0, crashes: [] },
    postgres: null,
    anvil: null,
    deploy: null,
    outOfGas: null,
    fuzz: null,
    invariants: null,
    events: {},
    secrets: { scanned: 0, bytes: 0, findings: [] },
    knownIssues: { postgresJsNullSocketInDriver: 0, workerDeaths: {}, webUncaught: 0 },
    production: null,
    failpoints: [],
    redemptions: null,
  }

  // postgres.js 3.4.9 can throw from a setImmediate when Postgres goes away (see
  // tests/attack/knownIssues.ts); this driver's own check pool must survive it
  const onUncaught = (error: Error) => {
    if (
      error instanceof TypeError &&
      /reading 'write'/.test(error.message) &&
      /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? '')
    ) {
      result.knownIssues.postgresJsNullSocketInDriver++
      log(`[known issue] postgres.js null-socket crash in the driver process (tolerated): ${error.message}`)
      return
    }
    log(`uncaught exception in the driver: ${error.stack ?? String(error)}`)
    process.exit(2)
  }
  process.on('uncaughtException', onUncaught)

  const stack = await startChaosStack({
    root: o.root,
    dataDir: o.dataDir,
    webDir: o.webDir,
    workers: o.workers,
    // takeover after 10 s of silence: kills are noticed quickly, a few seconds without Postgres are not a death
    workerEnv: {
      WORKER_STALE_AFTER_MS: '10000',
      WORKER_HEARTBEAT_MS: '1000',
      NONCE_STALL_AFTER_MS: '6000',
      WORKER_CONCURRENCY: '8',
    },
    log,
  })
  durations.boot = Date.now() - t0
  activeStops.add(stack.stop)
  const { pool, sql, chain } = stack
  const supervisor = startSupervisor({ pool, keep: o.workers, log })
  try {
    const api = createHttpApi({
      baseUrl: stack.baseUrl,
      credentials: {
        staff: { email: 'staff@mintdesk.local', password: stack.env.DEV_STAFF_PASSWORD },
        admin: { email: 'admin@mintdesk.local', password: stack.env.DEV_ADMIN_PASSWORD },
        approver: { email: 'approver@mintdesk.local', password: stack.env.DEV_APPROVER_PASSWORD },
      },
    })
    await api.cookieOf('staff')
    await api.cookieOf('admin')
    // the recipients' keys are kept: phase 1b's holders send tokens back to redeem them
    const holders = Array.from({ length: 12 }, () => privateKeyToAccount(generatePrivateKey()))
    const recipients: Address[] = holders.map((h) => getAddress(h.address))
    const runId = `LC${Date.now().toString(36)}`
    const planned = planOrders({ runId, count: o.orders, recipients, seed: o.seed })
    const db = drizzle(sql, { schema })
    await stockPlannedOrders(db, planned)
    const probes = planned.slice(-2)
    const stream = planned.slice(0, -2)
    const countMinted = async () =>
      (
        await chain.getContractEvents({
          address: stack.tokenAddress,
          abi: goldTokenAbi,
          eventName: 'Minted',
          fromBlock: 0n,
          toBlock: 'latest',
        })
      ).length

    // 1. orders under kills and bad input; meanwhile a database restart, a chain restart and a rolling deploy
    const p1 = Date.now()
    let killer = startKiller({ pool, everyMs: [2_000, 5_000], rng, keep: 0, spare: 1, log })
    const fuzzer = startFuzzer({ api, seed: o.seed, pauseMs: 25, collect: (t) => errorBodies.push(t) })
    const submitting = submitAll(api, {
      orders: stream,
      approveAs: 'approver',
      concurrency: 6,
      perSecond: 5,
      giveUpAfterMs: 180_000,
      requestTimeoutMs: 15_000,
    })
    let submitted = false
    void submitting.finally(() => {
      submitted = true
    })
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
    const faults = (async () => {
      await pause(25_000)
      log('fault: Postgres stop/start under load')
      result.postgres = await restartPostgresUnderLoad({ pg: stack.pg, api, downForMs: 4_000, probes, log })
      await pause(15_000)
      log('fault: anvil SIGKILL, restart from a saved state 5 s old')
      result.anvil = await restartAnvilFromOlderState({
        anvil: stack.anvil,
        rollbackMs: 5_000,
        minForgottenMints: 5,
        countMinted,
        log,
      })
      // a worker beside the pool dies at each step of a batched send, with the batch it leads in hand
      log('fault: SIGKILL at the send failpoints (after_reserve, after_sign, after_broadcast)')
      result.failpoints = await crashAtFailpoints({
        env: stack.workerEnv,
        failpoints: ['after_reserve', 'after_sign', 'after_broadcast'],
        feed: async () => {},
        timeoutMs: 30_000,
        log,
      })
      await pause(5_000)
      // a deploy while orders still come in: the killer pauses (it must not kill a worker that is shutting down)
      if (submitted) log('deploy: the orders were all in before the deploy; it runs on the remaining jobs')
      await killer.stop()
      const d0 = Date.now()
      result.deploy = await rollingDeploy({ pool, sql, size: o.workers, log })
      durations.deploy = Date.now() - d0
      killer = startKiller({ pool, everyMs: [2_000, 5_000], rng, keep: 0, spare: 1, log })
    })()
    const [outcomes] = await Promise.all([submitting, faults])
    const probeOutcomes = await submitAll(api, { orders: probes, concurrency: 2, approveAs: 'approver' })
    // a few more kills while the last orders are signed and confirmed
    await pause(5_000)
    await killer.stop()
    durations.ordersSubmitted = Date.now() - p1
    result.intake = tallySubmits([...outcomes, ...probeOutcomes])
    log(`intake: ${JSON.stringify({ ...result.intake, slow: result.intake.slow.length })}`)
    if (result.intake.refused.length)
      problems.push(`orders refused at intake: ${result.intake.refused.slice(0, 5).join('; ')}`)
    if (result.intake.accepted !== o.orders) problems.push(`${result.intake.accepted} of ${o.orders} orders accepted`)
    if (result.intake.hangs > 0) problems.push(`${result.intake.hangs} intake request(s) got no answer within 15 s`)
    if (result.postgres) {
      if (Object.keys(result.postgres.readyWhileDown).some((s) => s !== '503'))
        problems.push(`/api/ready while Postgres was down: ${JSON.stringify(result.postgres.readyWhileDown)}`)
      for (const i of result.postgres.intakeWhileDown)
        if (i.status < 500 || i.ms > 10_000) problems.push(`intake while Postgres was down: ${JSON.stringify(i)}`)
    }
    if (result.anvil && result.anvil.forgottenMints <= 0)
      problems.push('the anvil restart forgot no mint: the scenario did not bite')
    if (result.deploy) problems.push(...result.deploy.problems)
    for (const c of result.failpoints)
      if (!c.diedThere)
        problems.push(`failpoint ${c.failpoint}: no batch reached it within 30 s (the orders were all in?)`)

    durations.settle1 = await waitForSettled({
      sql,
      chain,
      timeoutMs: 300_000,
      log,
      liveWorkerIds: () => pool.liveIds(),
    })
    result.fuzz = await fuzzer.stop()
    problems.push(...result.fuzz.problems.slice(0, 20))
    const first = await checkInvariants({
      sql,
      chain,
      tokenAddress: stack.tokenAddress,
      expectedOrderIds: [...outcomes, ...probeOutcomes].flatMap((x) => x.orderId ?? []),
      liveWorkerIds: pool.liveIds(),
    })
    log(`after phase 1: ${summarizeReport(first)}`)
    problems.push(...first.problems.map((p) => `phase 1: ${p}`))
    if (first.orders !== o.orders)
      problems.push(`phase 1: ${first.orders} order rows for ${o.orders} orders (bad input or a retry wrote rows)`)
    durations.phase1 = Date.now() - p1

    // 1b. redemptions and compliance operations under kills: holders redeem whole orders through the API, an address
    // is frozen and unfrozen, while a random worker is SIGKILLed every few seconds
    const pr = Date.now()
    const redeemKiller = startKiller({ pool, everyMs: [2_000, 5_000], rng, keep: 0, spare: 1, log })
    const byHolder = new Map(holders.map((h) => [h.address.toLowerCase(), h]))
    const toRedeem = await sql<{ id: string; to_address: string; amount_wei: string }[]>`
      select id::text as id, to_address, amount_wei::text as amount_wei from mint_orders
      where status = 'confirmed' order by confirmed_at limit ${REDEMPTIONS}`
    const [redeemed, compliance] = await Promise.all([
      redeemOrders({
        api,
        sql,
        rpcUrl: stack.env.RPC_URL,
        chainId: Number(stack.env.CHAIN_ID),
        tokenAddress: stack.tokenAddress,
        minterAddress: getAddress(stack.env.MINTER_ADDRESS),
        orders: toRedeem.flatMap((r) => {
          const holder = byHolder.get(r.to_address.toLowerCase())
          return holder ? [{ orderId: r.id, holder, amountWei: BigInt(r.amount_wei) }] : []
        }),
        giveUpAfterMs: 180_000,
        log,
      }),
      freezeAndUnfreeze(api, {
        address: getAddress(privateKeyToAddress(generatePrivateKey())),
        giveUpAfterMs: 180_000,
        log,
      }),
    ])
    await redeemKiller.stop()
    problems.push(...redeemed.problems.map((x) => `redemptions: ${x}`))
    problems.push(...compliance.problems.map((x) => `compliance: ${x}`))
    durations.settle1b = await waitForSettled({
      sql,
      chain,
      timeoutMs: 300_000,
      log,
      liveWorkerIds: () => pool.liveIds(),
    })
    const afterRedemptions = await checkInvariants({
      sql,
      chain,
      tokenAddress: stack.tokenAddress,
      liveWorkerIds: pool.liveIds(),
    })
    log(`after phase 1b: ${summarizeReport(afterRedemptions)}`)
    problems.push(...afterRedemptions.problems.map((x) => `phase 1b: ${x}`))
    if (afterRedemptions.burned !== redeemed.redemptionIds.length)
      problems.push(`phase 1b: ${afterRedemptions.burned} burned of ${redeemed.redemptionIds.length} signed`)
    result.redemptions = {
      planned: toRedeem.length,
      signed: redeemed.redemptionIds.length,
      burned: afterRedemptions.burned,
      burnedEvents: afterRedemptions.burnedEvents,
      complianceApplied: compliance.applied,
      complianceProblems: compliance.problems.length,
    }
    durations.redemptions = Date.now() - pr

    // 2b. the faults production meets most: KMS throttling, RPC limits and a lagging head, a 90 s database failover
    const pf = Date.now()
    const faultOrders = planOrders({
      runId,
      count: 4 * PRODUCTION_FAULT_ORDERS,
      recipients,
      seed: o.seed + 2,
      first: o.orders + o.outOfGasOrders,
    })
    await stockPlannedOrders(db, faultOrders)
    result.production = await runProductionFaults({
      api,
      sql,
      chain,
      tokenAddress: stack.tokenAddress,
      kmsThrottle: stack.kmsThrottle,
      rpcProxy: stack.rpcProxy,
      pg: stack.pg,
      orders: faultOrders,
      perFault: PRODUCTION_FAULT_ORDERS,
      liveWorkerIds: () => pool.liveIds(),
      log,
    })
    problems.push(...result.production.problems.map((x) => `production faults: ${x}`))
    durations.productionFaults = Date.now() - pf

    // 3. the signers out of gas money
    const p4 = Date.now()
    const gasOrders = planOrders({ runId, count: o.outOfGasOrders, recipients, seed: o.seed + 1, first: o.orders })
    await stockPlannedOrders(db, gasOrders)
    result.outOfGas = await runOutOfGas({
      api,
      approveAs: 'approver',
      sql,
      rpcUrl: stack.anvil.rpcUrl,
      signers: stack.signers,
      orders: gasOrders,
      fastForward: false,
      timeoutMs: 240_000,
      log,
      transport: stack.env.QUEUE_TRANSPORT === 'sqs' ? 'sqs' : 'postgres',
    })
    if (result.outOfGas.attempts.some((a) => a !== 5))
      problems.push(`out of gas: attempts per dead job ${JSON.stringify(result.outOfGas.attempts)}`)
    // the bulk retry takes every dead mint_send: the out-of-gas ones, and those of earlier phases whose worker was
    // killed at their last attempt while the confirmer confirmed their order (dead letters of confirmed orders)
    if (result.outOfGas.retried < o.outOfGasOrders)
      problems.push(`out of gas: the bulk retry retried ${result.outOfGas.retried} of ${o.outOfGasOrders}`)
    else if (result.outOfGas.retried > o.outOfGasOrders)
      log(`out of gas: the bulk retry also took ${result.outOfGas.retried - o.outOfGasOrders} earlier dead letter(s)`)
    await waitForSettled({ sql, chain, timeoutMs: 180_000, log, liveWorkerIds: () => pool.liveIds() })
    durations.outOfGas = Date.now() - p4

    // the end: every invariant over everything, then a clean SIGTERM of every worker
    await supervisor.stop()
    result.invariants = await checkInvariants({
      sql,
      chain,
      tokenAddress: stack.tokenAddress,
      liveWorkerIds: pool.liveIds(),
    })
    result.events = await countEvents(sql)
    problems.push(...result.invariants.problems)
    const expectedRows = o.orders + o.outOfGasOrders + (result.production ? 4 * PRODUCTION_FAULT_ORDERS : 0)
    if (result.invariants.orders !== expectedRows)
      problems.push(`${result.invariants.orders} order rows, expected ${expectedRows}`)
    const exits = await pool.stopAll()
    for (const e of exits)
      if (e.code !== 0 || e.signal !== null)
        problems.push(`${e.name} exited ${e.code}/${e.signal} on the final SIGTERM`)
    const locked = await sql`select id from graphile_worker._private_jobs where locked_by is not null`
    if (locked.length) problems.push(`${locked.length} job(s) still locked after every worker stopped`)
    result.workers = {
      target: o.workers,
      started: pool.stats.started,
      sigkills: pool.stats.sigkills,
      sigterms: pool.stats.sigterms,
      startFailures: pool.startFailures(),
      crashes: pool.crashes(),
    }
    // a started worker may die on its own only for a known reason when Postgres went away
    // (tests/attack/knownIssues.ts); it is replaced
    for (const c of result.workers.crashes) {
      const cause = workerDeathCause(readFileSync(c.logFile, 'utf8'))
      if (cause) result.knownIssues.workerDeaths[cause] = (result.knownIssues.workerDeaths[cause] ?? 0) + 1
      else problems.push(`worker ${c.name} exited ${c.code}/${c.signal} on its own (log: ${c.logFile})`)
    }
    log(
      `final: ${summarizeReport(result.invariants)}; events ${JSON.stringify(result.events)}; workers ${JSON.stringify({ ...result.workers, crashes: result.workers.crashes.length })}`,
    )
  } catch (error) {
    problems.push(`the run stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  } finally {
    await supervisor.stop().catch(() => {})
    // secrets: the web's and KMS endpoint's log, every worker's log, every error body
    const secrets = collectSecrets({ env: stack.env, kmsKeysFile: stack.kmsKeysFile })
    const workerLogs = pool.all.map((w) => w.logFile)
    const texts = [
      ...readTexts([stack.childLogFile, ...workerLogs]),
      { where: 'error bodies', text: errorBodies.join('\n') },
    ]
    result.secrets = {
      scanned: texts.length,
      bytes: texts.reduce((n, t) => n + t.text.length, 0),
      findings: findSecrets(secrets, texts),
    }
    for (const f of result.secrets.findings.slice(0, 10))
      problems.push(`secret ${f.secret} in ${f.where}: ${f.context}`)
    result.knownIssues.webUncaught = (readTexts([stack.childLogFile])[0]?.text.match(/uncaughtException/g) ?? []).length
    await stack.stop()
    activeStops.delete(stack.stop)
    process.removeListener('uncaughtException', onUncaught)
    durations.total = Date.now() - t0
  }
  result.ok = problems.length === 0
  return result
}
