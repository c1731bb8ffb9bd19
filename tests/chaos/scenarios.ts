import { readFileSync, writeFileSync } from 'node:fs'
import fc from 'fast-check'
import type postgres from 'postgres'
import { type Address, type PublicClient, parseEther, toHex } from 'viem'
import { startWorkerProcess } from '@/tests/helpers/workerProcess'
import { type Api, type ApiRole, ApiTimeoutError } from './api'
import { BAD_INPUT_STATUSES, badRequest, errorShapeProblems, headersOf } from './badInputs'
import { type PlannedOrder, submitAll } from './orders'
import type { WorkerPool } from './workerPool'

/**
 * The faults of the chaos suite, each a function over small handles (the short form
 * binds them to vitest fixtures, the long form to its own stack). Each returns what it
 * measured; the caller checks the invariants afterwards (checkInvariants).
 */

export type Log = (line: string) => void

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// ---------------------------------------------------------------------------------------
// settling

export type WaitForSettledParameters = {
  sql: postgres.Sql
  chain: PublicClient
  timeoutMs: number
  /** called while waiting (e.g. to fast-forward retry back-offs) */
  onTick?: () => Promise<void>
  log?: Log
  /**
   * the ids of the workers still alive: when given, also wait until no job (the periodic
   * nonce_health and reserve_check included) is locked by a killed one, i.e. until the
   * stale-worker unlock has taken it over (invariant 5), as checkInvariants then requires
   */
  liveWorkerIds?: () => ReadonlySet<string>
}

/**
 * Waits until the system is quiet: no order, redemption or compliance operation pending or submitted, no live
 * send job that is not a dead letter, every signer's nonces mined and its pool empty.
 */
export async function waitForSettled({
  sql,
  chain,
  timeoutMs,
  onTick,
  log = () => {},
  liveWorkerIds,
}: WaitForSettledParameters): Promise<number> {
  const t0 = Date.now()
  let last = ''
  for (;;) {
    const state = await settleState({ sql, chain, onTick, liveWorkerIds }).catch((error: unknown) => {
      // the driver's own pool after a Postgres restart: a connection
      // that died meanwhile fails once, the next query reconnects
      if (Date.now() - t0 > timeoutMs) throw error
      log(`settling: a check failed (${error instanceof Error ? error.message : String(error)}), trying again`)
      return undefined
    })
    if (state?.settled) return Date.now() - t0
    if (state && state.text !== last) log(`settling: ${state.text}`)
    if (state) last = state.text
    if (Date.now() - t0 > timeoutMs) throw new Error(`not settled after ${timeoutMs} ms: ${last}`)
    await sleep(500)
  }
}

/** One look at whether the system is quiet (waitForSettled's loop). */
async function settleState({
  sql,
  chain,
  onTick,
  liveWorkerIds,
}: Omit<WaitForSettledParameters, 'timeoutMs' | 'log'>): Promise<{ settled: boolean; text: string }> {
  await onTick?.()
  const [orders] = await sql<{ open: number; total: number; operations: number }[]>`
    select count(*) filter (where status in ('pending', 'submitted'))::int as open, count(*)::int as total,
      (select count(*)::int from redemptions where status in ('pending', 'submitted'))
        + (select count(*)::int from compliance_operations where status in ('pending', 'submitted')) as operations
    from mint_orders`
  const [jobs] = await sql<{ live: number }[]>`
    select count(*)::int as live from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier in ('mint_send', 'order_confirm', 'signer_confirm', 'redemption_send', 'compliance_send')
      and j.attempts < j.max_attempts`
  const [nonces] = await sql<
    { unmined: number }[]
  >`select count(*)::int as unmined from signer_nonces where state <> 'mined'`
  const live = liveWorkerIds?.()
  const orphaned = live
    ? (
        await sql<
          { locked_by: string }[]
        >`select locked_by from graphile_worker._private_jobs where locked_by is not null`
      ).filter((j) => !live.has(j.locked_by)).length
    : 0
  let pool = 0
  const signers = await sql<
    { address: Address; next_nonce: bigint | string }[]
  >`select address, next_nonce from signers`
  for (const s of signers) {
    const [latest, pending] = await Promise.all([
      chain.getTransactionCount({ address: s.address, blockTag: 'latest' }).catch(() => -1),
      chain.getTransactionCount({ address: s.address, blockTag: 'pending' }).catch(() => -2),
    ])
    if (latest !== pending || BigInt(latest) !== BigInt(s.next_nonce)) pool++
  }
  const text = `${orders.open} of ${orders.total} orders open, ${orders.operations} redemptions or compliance operations open, ${jobs.live} live send jobs, ${nonces.unmined} unmined nonces, ${pool} signer(s) behind, ${orphaned} job(s) locked by a killed worker`
  return {
    settled:
      orders.open === 0 &&
      orders.operations === 0 &&
      jobs.live === 0 &&
      nonces.unmined === 0 &&
      pool === 0 &&
      orphaned === 0,
    text,
  }
}

/**
 * How often each timeline event happened: evidence of what the
 * faults did (unlocked = a killed worker's job taken over). `signed` counts the worker's
 * transaction signatures (their data names the hash), `approval_signed` the approvers'.
 */
export async function countEvents(sql: postgres.Sql): Promise<Record<string, number>> {
  const rows = await sql<{ event: string; n: number }[]>`
    select case when event = 'signed' and not coalesce(data ? 'hash', false) then 'approval_signed' else event end
      as event, count(*)::int as n
    from job_events
    where event in ('unlocked', 'failed', 'retrying', 'dead', 'rebroadcast', 'reorged', 'stalled', 'replaced', 'reconciled', 'nonce_mismatch', 'signed', 'confirmed', 'retried')
    group by 1 order by 1`
  return Object.fromEntries(rows.map((r) => [r.event, r.n]))
}

/**
 * graphile-worker waits exp(attempts) s between attempts (~85 s over 5). The short form
 * fast-forwards that clock: a failed job waiting for its next attempt runs now. The
 * attempts, the failures and the dead letters are real.
 */
export async function fastForwardRetries(sql: postgres.Sql): Promise<void> {
  await sql`
    update graphile_worker._private_jobs set run_at = now()
    where locked_at is null and attempts > 0 and attempts < max_attempts and run_at > now()
      and task_id in (select id from graphile_worker._private_tasks where identifier in ('mint_send', 'order_confirm', 'signer_confirm'))`
}

// ---------------------------------------------------------------------------------------
// Postgres restarted under load

export type PostgresControl = {
  stop: () => Promise<void>
  /** starts it again on the same data folder and port */
  start: () => Promise<void>
}

export type PostgresRestartReport = {
  downMs: number
  /** GET /api/ready while the database was down: status -> count (-1 = no answer in 5 s) */
  readyWhileDown: Record<string, number>
  readyMaxLatencyMs: number
  /** POST /api/gold/mint while the database was down */
  intakeWhileDown: { status: number; ms: number; code: string | null }[]
  /** from the start to /api/ready 200 again */
  recoveredAfterMs: number
}

export type RestartPostgresParameters = {
  pg: PostgresControl
  api: Api
  /** keep it down at least this long, probing the web */
  downForMs: number
  /**
   * valid orders to try while it is down (they must be refused with a 5xx, quickly); the caller resubmits them later
   */
  probes: readonly PlannedOrder[]
  log?: Log
}

export async function restartPostgresUnderLoad({
  pg,
  api,
  downForMs,
  probes,
  log = () => {},
}: RestartPostgresParameters): Promise<PostgresRestartReport> {
  const readyWhileDown: Record<string, number> = {}
  const intakeWhileDown: PostgresRestartReport['intakeWhileDown'] = []
  let readyMaxLatencyMs = 0
  const t0 = Date.now()
  await pg.stop()
  log(`postgres stopped in ${Date.now() - t0} ms`)
  const downSince = Date.now()
  let probe = 0
  while (Date.now() - downSince < downForMs || probe < probes.length) {
    const r0 = Date.now()
    let status: number
    try {
      const res = await api({ method: 'GET', path: '/api/ready', timeoutMs: 5_000 })
      status = res.status
      await res.arrayBuffer()
    } catch (error) {
      status = error instanceof ApiTimeoutError ? -1 : 0
    }
    readyMaxLatencyMs = Math.max(readyMaxLatencyMs, Date.now() - r0)
    readyWhileDown[String(status)] = (readyWhileDown[String(status)] ?? 0) + 1
    if (probe < probes.length) {
      const order = probes[probe++]
      const i0 = Date.now()
      try {
        const res = await api({
          method: 'POST',
          path: '/api/gold/mint',
          as: 'staff',
          headers: { 'content-type': 'application/json', 'idempotency-key': order.key },
          body: JSON.stringify(order.body),
          timeoutMs: 20_000,
        })
        const text = await res.text()
        let code: string | null = null
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null
        } catch {}
        intakeWhileDown.push({ status: res.status, ms: Date.now() - i0, code })
      } catch (error) {
        intakeWhileDown.push({ status: error instanceof ApiTimeoutError ? -1 : 0, ms: Date.now() - i0, code: null })
      }
    }
    await sleep(250)
  }
  const s0 = Date.now()
  await pg.start()
  const downMs = Date.now() - downSince
  log(`postgres started again after ${downMs} ms down (start took ${Date.now() - s0} ms)`)
  for (;;) {
    try {
      const res = await api({ method: 'GET', path: '/api/ready', timeoutMs: 5_000 })
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {}
    if (Date.now() - s0 > 60_000) throw new Error('/api/ready did not answer 200 within 60 s of the Postgres restart')
    await sleep(200)
  }
  return { downMs, readyWhileDown, readyMaxLatencyMs, intakeWhileDown, recoveredAfterMs: Date.now() - s0 }
}

// ---------------------------------------------------------------------------------------
// the chain node restarted from an older saved state

export type AnvilControl = {
  rpcUrl: string
  stateFile: string
  /** SIGKILL: no final state dump */
  kill: () => Promise<void>
  /** starts it again on the same port, loading stateFile */
  start: () => Promise<void>
}

export type AnvilRestartReport = {
  headBefore: number
  headAfter: number
  forgottenBlocks: number
  mintedBefore: number
  mintedAfter: number
  /** Minted events the restart took away (their transactions must be sent again) */
  forgottenMints: number
  downMs: number
}

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await res.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}

/** A consistent copy of anvil's state file (it is rewritten every second). */
async function snapshotStateFile(file: string): Promise<string> {
  for (let i = 0; ; i++) {
    try {
      const text = readFileSync(file, 'utf8')
      JSON.parse(text)
      return text
    } catch (error) {
      if (i > 50) throw error
      await sleep(100)
    }
  }
}

export type RestartAnvilParameters = {
  anvil: AnvilControl
  /** how much chain history to throw away: the saved state is this old when the node restarts */
  rollbackMs: number
  countMinted: () => Promise<number>
  /** runs after the snapshot, while the chain moves on (e.g. more orders) */
  meanwhile?: () => Promise<void>
  /**
   * wait (up to a minute more) until at least this many mints landed after the snapshot, so the restart takes them away
   */
  minForgottenMints?: number
  log?: Log
}

/**
 * Saves the node's state, lets the chain move on (mints land, orders confirm), then
 * SIGKILLs the node and starts it again from the saved state: it has forgotten every
 * block since. The worker must notice the missing receipts and nonces and send the
 * stored transactions again, each still exactly once.
 */
export async function restartAnvilFromOlderState({
  anvil,
  rollbackMs,
  countMinted,
  meanwhile,
  minForgottenMints = 0,
  log = () => {},
}: RestartAnvilParameters): Promise<AnvilRestartReport> {
  const saved = await snapshotStateFile(anvil.stateFile)
  // counted after the copy was taken: the copy holds at most this many
  const mintedAtSnapshot = await countMinted()
  const t0 = Date.now()
  await meanwhile?.()
  const left = rollbackMs - (Date.now() - t0)
  if (left > 0) await sleep(left)
  for (
    const until = Date.now() + 60_000;
    Date.now() < until && (await countMinted()) - mintedAtSnapshot < minForgottenMints;
  )
    await sleep(500)
  const headBefore = Number(BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber')))
  const mintedBefore = await countMinted()
  const k0 = Date.now()
  await anvil.kill()
  writeFileSync(anvil.stateFile, saved)
  await anvil.start()
  const downMs = Date.now() - k0
  const headAfter = Number(BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber')))
  const mintedAfter = await countMinted()
  log(
    `anvil restarted from a state ${rollbackMs} ms old: head ${headBefore} -> ${headAfter}, Minted events ${mintedBefore} -> ${mintedAfter}`,
  )
  return {
    headBefore,
    headAfter,
    forgottenBlocks: headBefore - headAfter,
    mintedBefore,
    mintedAfter,
    forgottenMints: mintedBefore - mintedAfter,
    downMs,
  }
}

// ---------------------------------------------------------------------------------------
// the signer out of gas money

export type OutOfGasReport = {
  orders: number
  dead: number
  /** attempts each dead mint_send made (should be its max) */
  attempts: number[]
  reasons: string[]
  retried: number
  confirmed: number
  deadAfterMs: number
  confirmedAfterMs: number
}

export type RunOutOfGasParameters = {
  api: Api
  sql: postgres.Sql
  rpcUrl: string
  signers: readonly Address[]
  orders: readonly PlannedOrder[]
  /** fast-forward the retry back-off (short form) instead of waiting ~85 s */
  fastForward: boolean
  timeoutMs: number
  log?: Log
  /** with 'sqs', the dead letters are the DLQ's messages (as the worker lists them) and the admin retries them there */
  transport?: 'postgres' | 'sqs'
  /** who signs each order's approval through the API (submitOrder's approveAs) */
  approveAs?: ApiRole
}

/**
 * Drains every signer (anvil_setBalance 0): the mints cannot pay for gas, their jobs
 * retry and land in the dead letters, the orders fail with the reason. Then the signers
 * are funded and an admin retries every dead mint_send at once (POST /api/admin/jobs/retry
 * { state: "dead", task: "mint_send" }): each order confirms, once.
 */
export async function runOutOfGas({
  api,
  sql,
  rpcUrl,
  signers,
  orders,
  fastForward,
  timeoutMs,
  log = () => {},
  transport = 'postgres',
  approveAs,
}: RunOutOfGasParameters): Promise<OutOfGasReport> {
  for (const s of signers) await rpc(rpcUrl, 'anvil_setBalance', [s, '0x0'])
  log(`drained ${signers.length} signer(s)`)
  const t0 = Date.now()
  const submitted = await submitAll(api, { orders, concurrency: 4, approveAs })
  const refused = submitted.filter((s) => !s.orderId)
  if (refused.length)
    throw new Error(`out of gas: orders refused at intake: ${refused.map((r) => r.refused).join('; ')}`)
  const ids = submitted.map((s) => s.orderId as string)

  const deadline = t0 + timeoutMs
  for (;;) {
    if (fastForward) await fastForwardRetries(sql)
    const [row] =
      transport === 'sqs'
        ? await sql<{ dead: number; failed: number }[]>`
      select
        (select count(distinct order_id)::int from sqs_dead_letters where order_id = any(${ids}::uuid[])) as dead,
        (select count(*)::int from mint_orders where id = any(${ids}::uuid[]) and status = 'failed') as failed`
        : await sql<{ dead: number; failed: number }[]>`
      select
        (select count(*)::int from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = 'mint_send' and j.locked_at is null and j.attempts >= j.max_attempts and (j.payload->>'orderId')::uuid = any(${ids}::uuid[])) as dead,
        (select count(*)::int from mint_orders where id = any(${ids}::uuid[]) and status = 'failed') as failed`
    if (row.dead === ids.length && row.failed === ids.length) break
    if (Date.now() > deadline)
      throw new Error(
        `out of gas: after ${timeoutMs} ms only ${row.dead} of ${ids.length} mint_send jobs dead, ${row.failed} orders failed`,
      )
    await sleep(fastForward ? 300 : 1_000)
  }
  const deadAfterMs = Date.now() - t0
  const failedRows = await sql<
    { id: string; failure_reason: string | null }[]
  >`select id, failure_reason from mint_orders where id = any(${ids}::uuid[])`
  const attemptRows = await sql<{ n: number }[]>`
    select count(*)::int as n from job_events where order_id = any(${ids}::uuid[]) and task = 'mint_send' and event = 'started' group by order_id`
  log(`out of gas: ${ids.length} mint_send jobs dead after ${deadAfterMs} ms`)

  for (const s of signers) await rpc(rpcUrl, 'anvil_setBalance', [s, toHex(parseEther('100'))])
  let retried = 0
  if (transport === 'sqs') {
    const res = await api({
      method: 'POST',
      path: '/api/admin/dead-letters/sqs/retry',
      as: 'admin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ all: true }),
    })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`SQS dead-letter retry answered ${res.status}: ${text.slice(0, 500)}`)
    retried += (JSON.parse(text) as { retried: unknown[] }).retried.length
  }
  for (let round = 0; transport === 'postgres' && round < 10; round++) {
    const res = await api({
      method: 'POST',
      path: '/api/admin/jobs/retry',
      as: 'admin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'dead', task: 'mint_send' }),
    })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`bulk retry answered ${res.status}: ${text.slice(0, 500)}`)
    const body = JSON.parse(text) as { retried: unknown[]; truncated: boolean }
    retried += body.retried.length
    if (!body.truncated) break
  }
  log(`funded; bulk retry retried ${retried} job(s)`)
  const r0 = Date.now()
  for (;;) {
    const [row] = await sql<
      { confirmed: number }[]
    >`select count(*)::int as confirmed from mint_orders where id = any(${ids}::uuid[]) and status = 'confirmed'`
    if (row.confirmed === ids.length) break
    if (Date.now() - r0 > timeoutMs)
      throw new Error(
        `out of gas: ${row.confirmed} of ${ids.length} orders confirmed ${timeoutMs} ms after the bulk retry`,
      )
    await sleep(300)
  }
  return {
    orders: ids.length,
    dead: ids.length,
    attempts: attemptRows.map((r) => r.n),
    reasons: [...new Set(failedRows.map((r) => r.failure_reason ?? '(none)'))],
    retried,
    confirmed: ids.length,
    deadAfterMs,
    confirmedAfterMs: Date.now() - r0,
  }
}

// ---------------------------------------------------------------------------------------
// SIGTERM during a deploy

export type DeployReport = {
  replaced: number
  /** per worker: exit code, how long the graceful stop took, jobs it held at SIGTERM, jobs still locked by it after */
  exits: {
    name: string
    code: number | null
    signal: string | null
    ms: number
    heldAtSigterm: number
    lockedAfter: number
    markedStopped: boolean
  }[]
  problems: string[]
}

/** A rolling deploy: each running worker is replaced by a new one, then sent SIGTERM while its jobs run. */
export async function rollingDeploy({
  pool,
  sql,
  size,
  log = () => {},
}: {
  pool: WorkerPool
  sql: postgres.Sql
  size: number
  log?: Log
}): Promise<DeployReport> {
  const exits: DeployReport['exits'] = []
  const problems: string[] = []
  // the service at full size first (a worker may still be starting after a kill)
  for (let i = 0; pool.started().length < size && i < 120; i++) await sleep(500)
  for (const old of pool.started()) {
    const id = pool.idOf(old)
    await pool.start()
    const [held] = await sql<
      { n: number }[]
    >`select count(*)::int as n from graphile_worker._private_jobs where locked_by = ${id ?? ''}`
    const t0 = Date.now()
    const exit = await pool.signal(old, 'SIGTERM')
    const ms = Date.now() - t0
    const [after] = await sql<
      { n: number }[]
    >`select count(*)::int as n from graphile_worker._private_jobs where locked_by = ${id ?? ''}`
    const [row] = await sql<
      { stopped: boolean }[]
    >`select stopped_at is not null as stopped from workers where id = ${id ?? ''}`
    const e = {
      name: old.name,
      code: exit.code,
      signal: exit.signal,
      ms,
      heldAtSigterm: held.n,
      lockedAfter: after.n,
      markedStopped: row?.stopped ?? false,
    }
    exits.push(e)
    log(
      `deploy: ${old.name} SIGTERM with ${held.n} job(s) held -> exit ${exit.code}/${exit.signal} in ${ms} ms, ${after.n} still locked`,
    )
    if (exit.code !== 0 || exit.signal !== null)
      problems.push(`${old.name} exited ${exit.code}/${exit.signal} on SIGTERM (log: ${old.logFile})`)
    if (after.n !== 0) problems.push(`${old.name} left ${after.n} job(s) locked after a clean shutdown`)
    if (!e.markedStopped) problems.push(`${old.name} did not mark itself stopped`)
  }
  return { replaced: exits.length, exits, problems }
}

// ---------------------------------------------------------------------------------------
// bad input over the real API

export type FuzzReport = {
  tried: number
  byStatus: Record<string, number>
  byKind: Record<string, number>
  problems: string[]
}

/**
 * Sends fast-check's bad requests to POST /api/gold/mint until stopped (or `count` of
 * them); every answer must be a 4xx in docs/api.md's error shape. Rows are counted by the
 * caller (the order count at the end must be exactly the good orders).
 */
export function startFuzzer({
  api,
  seed,
  count,
  pauseMs = 20,
  collect,
}: {
  api: Api
  seed: number
  count?: number
  pauseMs?: number
  collect?: (text: string) => void
}): { stop: () => Promise<FuzzReport> } {
  const report: FuzzReport = { tried: 0, byStatus: {}, byKind: {}, problems: [] }
  let stopped = false
  const loop = (async () => {
    let batch = 0
    while (!stopped && (count === undefined || report.tried < count)) {
      const samples = fc.sample(badRequest, { seed: seed + batch++, numRuns: 50 })
      for (const r of samples) {
        if (stopped || (count !== undefined && report.tried >= count)) break
        report.tried++
        const kind = r.kind.split(':')[0]
        report.byKind[kind] = (report.byKind[kind] ?? 0) + 1
        let status: number
        let text = ''
        let contentType: string | null = null
        try {
          const res = await api({
            method: 'POST',
            path: '/api/gold/mint',
            as: 'staff',
            headers: headersOf(r),
            body: r.body,
            timeoutMs: 20_000,
          })
          status = res.status
          contentType = res.headers.get('content-type')
          text = await res.text()
        } catch (error) {
          status = error instanceof ApiTimeoutError ? -1 : 0
          text = String(error)
        }
        collect?.(text)
        report.byStatus[String(status)] = (report.byStatus[String(status)] ?? 0) + 1
        // while Postgres is away every request is refused 503 not_ready before
        // its body is read (the session is checked in the database first)
        const databaseAway = status === 503 && text.includes('"not_ready"')
        if (!BAD_INPUT_STATUSES.has(status) && !databaseAway)
          report.problems.push(`${r.kind}: status ${status} ${text.slice(0, 200)}`)
        else for (const p of errorShapeProblems(status, contentType, text)) report.problems.push(`${r.kind}: ${p}`)
        if (pauseMs) await sleep(pauseMs)
      }
    }
  })()
  return {
    stop: async () => {
      stopped = true
      await loop
      return report
    },
  }
}

// ---------------------------------------------------------------------------------------
// SIGKILL at a failpoint (docs/decisions/029-batched-sending.md: between reserving a batch of nonces and storing
// their signatures, after storing them, after broadcasting them)

export type CrashAtFailpointsParameters = {
  /** the pool's environment: each victim runs with it and MINTDESK_FAILPOINTS = one failpoint */
  env: Record<string, string>
  failpoints: readonly string[]
  /** called while a victim waits to reach its failpoint (e.g. submit a few more orders) */
  feed: () => Promise<void>
  /** a victim that reached no failpoint in this long is SIGKILLed by us instead */
  timeoutMs: number
  log?: Log
}

export type FailpointCrash = { failpoint: string; diedThere: boolean; ms: number; workerId: string | undefined }

/**
 * For each failpoint, one more worker beside the pool that SIGKILLs itself there (a
 * crash at exactly that step, not a random one), fed orders until it does. Its jobs,
 * the batch it claimed included, are the pool's to take over after the stale-worker
 * unlock; the caller then waits for the system to settle and checks the invariants.
 */
export async function crashAtFailpoints({
  env,
  failpoints,
  feed,
  timeoutMs,
  log = () => {},
}: CrashAtFailpointsParameters): Promise<FailpointCrash[]> {
  const crashes: FailpointCrash[] = []
  for (const failpoint of failpoints) {
    const t0 = Date.now()
    const victim = startWorkerProcess({
      name: `failpoint-${failpoint}`,
      env: { ...env, MINTDESK_FAILPOINTS: failpoint },
    })
    let exited = false
    void victim.exited.then(() => {
      exited = true
    })
    // fed only once it runs: a worker still starting would leave every order to the pool
    await victim.waitForLine((l) => l.msg === 'worker started', timeoutMs).catch(() => undefined)
    const fedFrom = Date.now()
    while (!exited && Date.now() - fedFrom < timeoutMs) {
      await feed()
      await sleep(500)
    }
    if (!exited) await victim.stop('SIGKILL')
    const diedThere = victim.lines.some((l) => l.failpoint === failpoint)
    const started = victim.lines.find((l) => l.msg === 'worker started')
    crashes.push({
      failpoint,
      diedThere,
      ms: Date.now() - t0,
      workerId: started ? String(started.workerId) : undefined,
    })
    log(
      `failpoint ${failpoint}: ${diedThere ? 'the worker killed itself there' : 'not reached, killed by us'} after ${Date.now() - t0} ms`,
    )
  }
  return crashes
}
