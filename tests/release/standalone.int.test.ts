import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { setPriority, tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '@/db/client'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { DEV_AUTH_SECRET, DEV_KMS_ACCESS_KEY } from '@/lib/config/loadConfig'
import { devKey } from '@/lib/keys/devKeys'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { ozToWei } from '@/lib/money/ozToWei'
import { type TypedDataJson, toViemTypedData } from '@/lib/web/signing/toViemTypedData'
import { freePort } from '@/scripts/stack/freePort'
import { type EmbeddedPostgres, startPostgres } from '@/scripts/stack/postgres'
import { errorShapeProblems } from '@/tests/chaos/badInputs'
import { type ApiIntentTypedData, signApiIntent } from '@/tests/chaos/orders'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey } from '@/tests/helpers/approvals'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { allowRecipients } from '@/tests/helpers/recipients'
import { registerCustodian } from '@/tests/helpers/registerCustodian'
import { QUEUE_METRICS_MESSAGE } from '@/worker/ops/emitQueueMetrics'
import { junkBarLists, residentMiB } from './barListJunk'
import { type DockerTarget, dockerTarget, readDockerfile } from './dockerfile'
import { canIsolate, type ReleaseProcess, runReleaseProcess, startReleaseProcess } from './releaseProcess'

/**
 * The release, proven without Docker (there is no Docker engine on this machine):
 *
 * 1. `scripts/build-release.ts` (the one command of the Dockerfile's build stage) builds
 *    dist/release/{web,worker}; skipped when dist/release matches the sources.
 * 2. The `web` and `worker` stages of the Dockerfile are read, and exactly what their
 *    COPY --from=build lines copy is copied into two empty folders, with their ENV, WORKDIR
 *    and CMD. The processes run with a clean environment and (as root) in a mount
 *    namespace where the repository is hidden, so nothing outside the copy is reachable.
 * 3. An EMPTY database (on a Postgres server of its own) is migrated by the worker
 *    image's `node migrate.mjs` (twice at once: the advisory lock makes the second a
 *    no-op), the owner's password in PGPASSWORD as ECS passes it, with the passwords of
 *    the runtime roles mintdesk_web / mintdesk_worker (WEB_/WORKER_DATABASE_PASSWORD).
 * 4. Web and worker start in production mode (NODE_ENV=production from the image, real
 *    secrets), each as its own database role, against that Postgres, anvil and the local KMS endpoint. The only
 *    concession: MINTDESK_ALLOW_LOOPBACK_KMS=1, because the KMS endpoint is on loopback.
 * 5. A user signs in over HTTP, requests a mint; the worker signs it through KMS and
 *    anvil confirms it; the API reports `confirmed` and the chain holds the tokens.
 * 6. Both stop on SIGTERM within ECS's stopTimeout.
 * 7. The same production start refuses every dev default, naming the variable.
 */

const root = path.resolve(import.meta.dirname, '..', '..')
const BUILD_TIMEOUT_MS = 40 * 60_000
const timings: Record<string, number> = {}

let work: string
let web: { target: DockerTarget; dir: string; env: Record<string, string> }
let worker: { target: DockerTarget; dir: string; env: Record<string, string> }
let chain: ChainFixture | undefined
let databaseName: string
/** the migration owner's URL (no password: PGPASSWORD carries it, as ECS passes it) */
let databaseUrl: string
let pgPassword: string
/** this test's own Postgres server: the runtime roles are server-wide, and these get production-like passwords */
let pg: EmbeddedPostgres | undefined
const rolePasswords = { web: randomBytes(24).toString('base64url'), worker: randomBytes(24).toString('base64url') }
let webPort: number
let appUrl: string
let webProc: ReleaseProcess | undefined
let workerProc: ReleaseProcess | undefined
const authSecret = randomBytes(32).toString('base64url')
const metricsToken = randomBytes(24).toString('base64url')
const user = { email: 'ops-release@mintdesk.test', password: randomBytes(18).toString('base64url') }
/** the second person (four eyes): every order waits for an approver's signature */
const approverUser = { email: 'approver-release@mintdesk.test', password: randomBytes(18).toString('base64url') }
/** imports the custodians' bar lists */
const adminUser = { email: 'admin-release@mintdesk.test', password: randomBytes(18).toString('base64url') }

/** Copies what a Dockerfile target copies from the build stage (WORKDIR /app = the repo) into `into`. */
function copyLikeDockerfile(target: DockerTarget, into: string): void {
  const buildWorkdir = '/app'
  for (const { src, dest } of target.copiesFromBuild) {
    const from = path.join(root, path.posix.relative(buildWorkdir, src))
    const to = path.join(into, path.posix.relative(target.workdir, dest))
    if (!existsSync(from)) throw new Error(`the Dockerfile copies ${src}, which the build did not make (${from})`)
    cpSync(from, to, { recursive: true, verbatimSymlinks: true })
  }
}

/** The image's ENV with /app (its WORKDIR) mapped to the folder; the RDS CA bundle does not exist here. */
function imageEnv(target: DockerTarget, dir: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(target.env)) {
    if (k === 'NODE_EXTRA_CA_CERTS') continue // /etc/ssl/certs/rds-global-bundle.pem: fetched by docker build only
    env[k] =
      v === target.workdir || v.startsWith(`${target.workdir}/`) ? path.join(dir, v.slice(target.workdir.length)) : v
  }
  return env
}

function ancestorsWithNodeModules(dir: string): string[] {
  const found: string[] = []
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules'))) found.push(d)
    if (d === path.dirname(d)) return found
  }
}

async function buildRelease(log: string): Promise<void> {
  const out = createWriteStream(log)
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/build-release.ts', '--if-changed'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  // a cold `next build` takes minutes of both cores: let the other test files run first
  if (child.pid) setPriority(child.pid, 10)
  child.stdout.pipe(out)
  child.stderr.pipe(out)
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
  await new Promise((r) => out.end(r))
  if (code !== 0) {
    const tail = readFileSync(log, 'utf8').split('\n').slice(-60).join('\n')
    throw new Error(`scripts/build-release.ts failed (exit ${code}):\n${tail}`)
  }
}

async function waitFor(url: string, proc: ReleaseProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null)
      throw new Error(`${proc.name} exited (${proc.child.exitCode}):\n${proc.output().slice(-4000)}`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} was not 200 within ${timeoutMs} ms:\n${proc.output().slice(-4000)}`)
}

function workerEnv(extra: Record<string, string> = {}): Record<string, string> {
  if (!chain) throw new Error('no chain')
  return {
    ...worker.env,
    DATABASE_URL: asRole(databaseUrl, 'mintdesk_worker'),
    PGPASSWORD: rolePasswords.worker,
    RPC_URL: chain.rpcUrl,
    CHAIN_ID: String(chain.chainId),
    TOKEN_ADDRESS: chain.tokenAddress,
    MINTER_ADDRESS: chain.minterAddress,
    KMS_KEY_IDS: chain.kmsKeyIds.join(','),
    KMS_ENDPOINT: chain.kmsEndpoint,
    AWS_REGION: 'us-east-1',
    // real-looking credentials: production refuses the dev pair, the local endpoint takes any
    AWS_ACCESS_KEY_ID: 'AKIARELEASETEST00001',
    AWS_SECRET_ACCESS_KEY: randomBytes(30).toString('base64'),
    // the one test-only concession: the local KMS endpoint is on loopback
    MINTDESK_ALLOW_LOOPBACK_KMS: '1',
    CONFIRMATIONS: '1',
    // production workers refuse to start without a fee ceiling (issue 13): far above anvil's fees
    MAX_FEE_PER_GAS: '1000000000000',
    RPC_POLLING_MS: '100',
    CONFIRM_POLL_MS: '200',
    ...extra,
  }
}

function webEnv(extra: Record<string, string> = {}, port = webPort): Record<string, string> {
  if (!chain) throw new Error('no chain')
  return {
    ...web.env,
    PORT: String(port),
    // the image says 0.0.0.0; loopback is enough here
    HOSTNAME: '127.0.0.1',
    DATABASE_URL: asRole(databaseUrl, 'mintdesk_web'),
    PGPASSWORD: rolePasswords.web,
    AUTH_SECRET: authSecret,
    APP_URL: `http://127.0.0.1:${port}`,
    METRICS_TOKEN: metricsToken,
    RPC_URL: chain.rpcUrl,
    CHAIN_ID: String(chain.chainId),
    TOKEN_ADDRESS: chain.tokenAddress,
    MINTER_ADDRESS: chain.minterAddress,
    ...extra,
  }
}

/** A cookie jar of one: next-auth's cookies across the sign-in. */
class Cookies {
  private jar = new Map<string, string>()
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair?.indexOf('=') ?? -1
      if (pair && i > 0) this.jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim())
    }
  }
  header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

async function signIn(email: string, password: string): Promise<Cookies> {
  const cookies = new Cookies()
  const csrfRes = await fetch(`${appUrl}/api/auth/csrf`)
  cookies.take(csrfRes)
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  const res = await fetch(`${appUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.header(), origin: appUrl },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: appUrl }).toString(),
  })
  cookies.take(res)
  const session = (await (
    await fetch(`${appUrl}/api/auth/session`, { headers: { cookie: cookies.header() } })
  ).json()) as {
    user?: { email?: string }
  } | null
  if (session?.user?.email !== email)
    throw new Error(`sign-in failed (status ${res.status}, session ${JSON.stringify(session)})`)
  return cookies
}

beforeAll(async () => {
  const t0 = Date.now()
  for (const f of ['worker/runtime/main.ts', 'lib/web/mint/createMintOrder.ts']) {
    if (!existsSync(path.join(root, f))) throw new Error(`${f} does not exist yet: the release cannot be built`)
  }
  work = mkdtempSync(path.join(tmpdir(), 'mintdesk-release-'))
  // nothing above the copies may hold a node_modules that would resolve what the copy lacks
  expect(ancestorsWithNodeModules(path.join(work, 'web', 'server.js'))).toEqual([])

  await buildRelease(path.join(work, 'build.log'))
  timings.buildOrReuseMs = Date.now() - t0

  const stages = readDockerfile(root)
  for (const name of ['web', 'worker'] as const) {
    const target = dockerTarget(stages, name)
    const dir = path.join(work, name)
    mkdirSync(dir)
    copyLikeDockerfile(target, dir)
    const entry = { target, dir, env: imageEnv(target, dir) }
    if (name === 'web') web = entry
    else worker = entry
  }

  // an empty database: the migrate bundle must create everything itself (roles included)
  chmodSync(work, 0o755) // as root the server runs as 'postgres', which must reach its data
  pg = await startPostgres({ dataDir: path.join(work, 'pg'), ephemeral: true, database: 'postgres' })
  const adminUrl = new URL(pg.adminUrl('postgres'))
  databaseName = `rel_${randomBytes(5).toString('hex')}`
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${databaseName}`)
  await admin.end()
  pgPassword = decodeURIComponent(adminUrl.password)
  const u = new URL(adminUrl)
  u.password = ''
  u.pathname = `/${databaseName}`
  databaseUrl = u.toString()

  chain = await startChainFixture({ signers: 1 })
  webPort = await freePort()
  appUrl = `http://127.0.0.1:${webPort}`
}, BUILD_TIMEOUT_MS)

afterAll(async () => {
  await Promise.all([workerProc?.stop('SIGKILL'), webProc?.stop('SIGKILL')])
  await chain?.stop()
  await pg?.stop()
  if (work) rmSync(work, { recursive: true, force: true })
  console.log(
    `[release test] timings (ms): ${JSON.stringify(timings)}; repository hidden from the processes: ${canIsolate()}`,
  )
}, 120_000)

describe('the release build, run like the images, in production mode', () => {
  it("the worker bundles are ASCII only: V8 keeps each one's source in the heap at one byte a character (decision 032)", () => {
    const bundles = readdirSync(worker.dir).filter((f) => f.endsWith('.mjs'))
    expect(bundles).toContain('worker.mjs')
    for (const name of bundles) {
      const bytes = readFileSync(path.join(worker.dir, name))
      const at = bytes.findIndex((b) => b > 0x7f)
      expect(
        at,
        `${name}: a byte beyond ASCII at ${at}: ${bytes.subarray(Math.max(0, at - 40), at + 20).toString('utf8')}`,
      ).toBe(-1)
    }
  })

  it("migrates an empty database with the worker image's migrate.mjs, twice at once", async () => {
    const run = () =>
      runReleaseProcess({
        name: 'migrate',
        cwd: worker.dir,
        args: ['migrate.mjs'],
        env: {
          ...worker.env,
          DATABASE_URL: databaseUrl,
          PGPASSWORD: pgPassword,
          WEB_DATABASE_PASSWORD: rolePasswords.web,
          WORKER_DATABASE_PASSWORD: rolePasswords.worker,
        },
        hide: root,
        timeoutMs: 120_000,
      })
    const t0 = Date.now()
    const [a, b] = await Promise.all([run(), run()])
    timings.migrateMs = Date.now() - t0
    expect(a.code, a.output).toBe(0)
    expect(b.code, b.output).toBe(0)
    expect(a.output).toContain('migrations applied')

    const { sql, close } = createDb({ url: withPassword(databaseUrl, pgPassword), max: 1 })
    try {
      const [tables] = await sql<
        { n: number }[]
      >`select count(*)::int as n from information_schema.tables where table_name in ('mint_orders','job_events','signers','users')`
      expect(tables?.n).toBe(4)
      const [jobs] = await sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs`
      expect(jobs?.n).toBe(0)
    } finally {
      await close()
    }
  }, 180_000)

  it('starts the web and the worker in production mode and completes a mint end to end', async () => {
    if (!chain) throw new Error('no chain')
    // a user, created as production creates one (no seeded passwords there): the worker
    // image's create-user.mjs, the password on stdin
    const createUser = () =>
      runReleaseProcess({
        name: 'create-user',
        cwd: worker.dir,
        args: [
          'create-user.mjs',
          '--email',
          user.email,
          '--name',
          'Release Test',
          '--role',
          'staff',
          '--password-stdin',
        ],
        env: { ...worker.env, DATABASE_URL: databaseUrl, PGPASSWORD: pgPassword },
        stdin: user.password,
        hide: root,
      })
    const created = await createUser()
    expect(created.code, created.output).toBe(0)
    expect(created.output).not.toContain(user.password)
    const again = await createUser()
    expect(again.code, again.output).toBe(3)
    const createdApprover = await runReleaseProcess({
      name: 'create-user',
      cwd: worker.dir,
      args: [
        'create-user.mjs',
        '--email',
        approverUser.email,
        '--name',
        'Release Approver',
        '--role',
        'approver',
        '--password-stdin',
      ],
      env: { ...worker.env, DATABASE_URL: databaseUrl, PGPASSWORD: pgPassword },
      stdin: approverUser.password,
      hide: root,
    })
    expect(createdApprover.code, createdApprover.output).toBe(0)

    // no mint limits yet: the production worker refuses to start, naming the way to set them;
    // the deploy's one-off task sets them (the worker image's limits.mjs), audited
    const refused = await runReleaseProcess({
      name: 'worker',
      cwd: worker.dir,
      args: worker.target.cmd.slice(1),
      env: workerEnv(),
      hide: root,
      timeoutMs: 60_000,
    })
    expect(refused.signal, refused.output.slice(-2000)).toBeNull()
    expect(refused.code, refused.output.slice(-2000)).not.toBe(0)
    expect(refused.output).toContain('limits.mjs')
    const setLimits = await runReleaseProcess({
      name: 'limits',
      cwd: worker.dir,
      args: ['limits.mjs', '--max-order-oz', '5000', '--daily-cap-oz', '50000.5'],
      env: { ...worker.env, DATABASE_URL: databaseUrl, PGPASSWORD: pgPassword },
      hide: root,
    })
    expect(setLimits.code, setLimits.output).toBe(0)
    expect(setLimits.output).toContain('"maxOrderOz":"5000.000"')
    expect(setLimits.output).toContain('"dailyCapOz":"50000.500"')

    const t0 = Date.now()
    workerProc = startReleaseProcess({
      name: 'worker',
      cwd: worker.dir,
      args: worker.target.cmd.slice(1),
      env: workerEnv(),
      hide: root,
    })
    webProc = startReleaseProcess({
      name: 'web',
      cwd: web.dir,
      args: web.target.cmd.slice(1),
      env: webEnv(),
      hide: root,
    })
    expect(worker.target.cmd[0]).toBe('node')
    expect(web.target.cmd[0]).toBe('node')
    await waitFor(`${appUrl}/api/ready`, webProc, 90_000)
    timings.webReadyMs = Date.now() - t0

    // the images' own health checks pass against the running processes
    const webHealth = await runReleaseProcess({
      name: 'web-healthcheck',
      cwd: web.dir,
      args: web.target.healthcheck?.cmd.slice(1) ?? [],
      env: { PORT: String(webPort) },
    })
    expect(webHealth.code, webHealth.output).toBe(0)
    const workerHealth = await runReleaseProcess({
      name: 'worker-healthcheck',
      cwd: worker.dir,
      args: worker.target.healthcheck?.cmd.slice(1) ?? [],
      env: {},
    })
    expect(workerHealth.code, `${workerHealth.output}\n${workerProc.output().slice(-3000)}`).toBe(0)

    expect((await fetch(`${appUrl}/api/health`)).status).toBe(200)
    expect((await fetch(`${appUrl}/api/metrics`)).status).toBe(401)
    expect(
      (await fetch(`${appUrl}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status,
    ).toBe(200)

    // sign in (credentials: no OIDC is configured here, see
    // lib/web/auth/nextAuth.ts / lib/web/auth/authMethods.ts) and mint
    const cookies = await signIn(user.email, user.password)
    const request = buildMintRequest({ bars: [{ serial: `REL-${randomBytes(4).toString('hex')}` }] })
    {
      // the bar on the vault's bar list first, as an admin would import it (bars never come from the request)
      const { db, close } = createDb({ url: withPassword(databaseUrl, pgPassword), max: 1 })
      try {
        await stockBarsOf(db, request)
        await allowRecipients(db, [request.to]) // and its recipient on the allowlist
      } finally {
        await close()
      }
    }
    const tMint = Date.now()
    const res = await fetch(`${appUrl}/api/gold/mint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookies.header(), origin: appUrl },
      body: JSON.stringify(request),
    })
    const accepted = (await res.json()) as { orderId: string; statusUrl: string; status: string; jobId?: string }
    expect(res.status, JSON.stringify(accepted)).toBe(202)
    // four eyes: no job until an approver signs the order's intent
    expect(accepted).toMatchObject({ status: 'awaiting_approval' })
    expect(accepted.jobId).toBeUndefined()
    {
      // the approver's key: the fixture's GoldMinter has the dev approvers (keys 10 and 11), whose binding a
      // production web refuses (POST /api/me/signing-key); so key 10 is bound here as that route binds a key
      const { db, close } = createDb({ url: withPassword(databaseUrl, pgPassword), max: 1 })
      try {
        const [u] = await db.execute<{ id: string }>(
          sql`select id::text as id from users where email = ${approverUser.email}`,
        )
        if (!u) throw new Error('no approver user')
        await bindDevKey(db, { userId: u.id, key: devKey('approver') })
      } finally {
        await close()
      }
    }
    const approverCookies = await signIn(approverUser.email, approverUser.password)
    const approval = await fetch(`${appUrl}/api/gold/mint/${accepted.orderId}/approval`, {
      headers: { cookie: approverCookies.header() },
    })
    expect(approval.status, await approval.clone().text()).toBe(200)
    const { typedData } = (await approval.json()) as { typedData: ApiIntentTypedData }
    const approved = await fetch(`${appUrl}/api/gold/mint/${accepted.orderId}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: approverCookies.header(), origin: appUrl },
      body: JSON.stringify({ signature: await signApiIntent(typedData) }),
    })
    expect(approved.status, await approved.clone().text()).toBe(200)
    expect(await approved.json()).toMatchObject({
      status: 'pending',
      decision: { outcome: 'approved', by: approverUser.email },
    })

    let order: { status: string; tx: { hash: string | null } | null } | undefined
    const deadline = Date.now() + 90_000
    while (Date.now() < deadline) {
      const r = await fetch(`${appUrl}${accepted.statusUrl}`, { headers: { cookie: cookies.header() } })
      expect(r.status).toBe(200)
      order = (await r.json()) as typeof order
      if (order?.status === 'confirmed' || order?.status === 'failed') break
      await new Promise((r) => setTimeout(r, 250))
    }
    timings.mintConfirmedMs = Date.now() - tMint
    expect(order?.status, `${JSON.stringify(order)}\n--- worker:\n${workerProc.output().slice(-4000)}`).toBe(
      'confirmed',
    )
    expect(order?.tx?.hash).toMatch(/^0x[0-9a-f]{64}$/)

    // and on the chain: one Minted event for the order, the tokens at the recipient
    const events = await chain.publicClient.getContractEvents({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      eventName: 'Minted',
      args: { orderId: orderIdToBytes32(accepted.orderId) },
      fromBlock: 0n,
    })
    expect(events).toHaveLength(1)
    expect(events[0]?.transactionHash).toBe(order?.tx?.hash)
    const balance = await chain.publicClient.readContract({
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'balanceOf',
      args: [TEST_RECIPIENT],
    })
    expect(balance).toBe(ozToWei(request.amount))

    // the rotation tool of the worker image sees the signer drained, and can deactivate it
    const signers = (args: string[]) =>
      runReleaseProcess({
        name: 'signers',
        cwd: worker.dir,
        args: ['signers.mjs', ...args],
        env: { ...worker.env, DATABASE_URL: databaseUrl, PGPASSWORD: pgPassword },
        hide: root,
      })
    const listed = await signers([])
    expect(listed.code, listed.output).toBe(0)
    const rows = listed.output
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'signer')
    expect(rows).toEqual([
      expect.objectContaining({ keyId: chain.kmsKeyIds[0], active: true, inFlight: 0, drained: true, nextNonce: '1' }),
    ])
    const off = await signers(['--deactivate', chain.kmsKeyIds[0] ?? ''])
    expect(off.code, off.output).toBe(0)
    expect(off.output).toContain('"active":false')
    const on = await signers(['--activate', chain.kmsKeyIds[0] ?? ''])
    expect(on.code, on.output).toBe(0)
    expect((await signers(['--deactivate', 'no-such-key'])).code).toBe(3)
  }, 240_000)

  it('the worker writes the queue_metrics line the production alarms read', () => {
    if (!workerProc) throw new Error('not started')
    // deploy/lib/MintdeskStack.ts turns this line into the DeadLetters and
    // OldestQueuedJobAgeSeconds metrics (CloudWatch metric filters on the worker's logs)
    const lines = workerProc
      .output()
      .split('\n')
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>
        } catch {
          return undefined
        }
      })
    const metricsLine = lines.find((l) => l?.msg === QUEUE_METRICS_MESSAGE)
    expect(
      metricsLine,
      'the worker never wrote a queue_metrics line: it must call startQueueMetrics (worker/ops/startQueueMetrics.ts)',
    ).toBeDefined()
    expect(metricsLine?.deadLetters).toBe(0)
    expect(typeof metricsLine?.oldestQueuedAgeSeconds).toBe('number')
  })

  it('20 MiB bar lists of junk (CSV and JSON) to the web with its 160 MiB heap: 4xx in the error shape, the web serves the next request, and then imports 100,000 bars', async () => {
    if (!webProc) throw new Error('not started')
    const created = await runReleaseProcess({
      name: 'create-user',
      cwd: worker.dir,
      args: [
        'create-user.mjs',
        '--email',
        adminUser.email,
        '--name',
        'Release Admin',
        '--role',
        'admin',
        '--password-stdin',
      ],
      env: { ...worker.env, DATABASE_URL: databaseUrl, PGPASSWORD: pgPassword },
      stdin: adminUser.password,
      hide: root,
    })
    expect(created.code, created.output).toBe(0)
    const admin = await signIn(adminUser.email, adminUser.password)
    const query = 'vault=REL-JUNK&asOf=2026-01-01T00:00:00Z'
    const post = (
      type: string,
      body: BodyInit,
      headers: Record<string, string> = {},
      route = 'admin/vault/bar-lists',
    ) =>
      fetch(`${appUrl}/api/${route}?${query}`, {
        method: 'POST',
        headers: { 'content-type': type, cookie: admin.header(), origin: appUrl, ...headers },
        body,
        signal: AbortSignal.timeout(60_000),
      })
    const measured: Record<string, { status: number; ms: number; peakRssMiB?: number }> = {}
    for (const junk of junkBarLists()) {
      const t0 = Date.now()
      const res = await post(junk.type, junk.body)
      const text = await res.text()
      const ms = Date.now() - t0
      expect([res.status, JSON.parse(text).error?.code], `${junk.name}: ${text.slice(0, 300)}`).toEqual([
        junk.expect.status,
        junk.expect.code,
      ])
      expect(errorShapeProblems(res.status, res.headers.get('content-type'), text), junk.name).toEqual([])
      expect(JSON.parse(text).error.issues?.length ?? 0, junk.name).toBeLessThanOrEqual(202)
      // still up, and serving
      expect(webProc.child.exitCode, `${junk.name}:\n${webProc.output().slice(-3000)}`).toBeNull()
      expect((await fetch(`${appUrl}/api/health`)).status, junk.name).toBe(200)
      measured[junk.name] = { status: res.status, ms, peakRssMiB: residentMiB(webProc.child.pid)?.peak }
    }
    expect(webProc.output()).not.toMatch(/heap out of memory|FATAL ERROR/)
    // and a real list of the largest size is imported by the same process afterwards, within its heap
    const lines = ['serial,refiner,year,grossOz,fineness']
    for (let i = 0; i < 100_000; i++) lines.push(`REL-OK-${i},Argor-Heraeus SA,2025,401.125,999.9`)
    // signed by a custodian key of its own, registered on chain by the admins (production refuses the dev keys)
    if (!chain) throw new Error('no chain')
    const custodian = privateKeyToAccount(generatePrivateKey())
    await registerCustodian(chain, custodian.address)
    const typed = await post('text/csv', lines.join('\n'), {}, 'vault/bar-lists/typed-data')
    expect(typed.status, await typed.clone().text()).toBe(200)
    const signature = await custodian.signTypedData(toViemTypedData((await typed.json()) as TypedDataJson))
    const t0 = Date.now()
    const ok = await post('text/csv', lines.join('\n'), { 'custodian-signature': signature })
    expect(ok.status, await ok.clone().text()).toBe(201)
    expect(await ok.json()).toMatchObject({ vault: 'REL-JUNK', added: 100_000 })
    measured['CSV: 100,000 valid bars'] = {
      status: ok.status,
      ms: Date.now() - t0,
      peakRssMiB: residentMiB(webProc.child.pid)?.peak,
    }
    expect(webProc.child.exitCode).toBeNull()

    // the same size again, asking for the progress (Accept: application/x-ndjson): the lines come while it runs
    const streamed = lines.map((line, i) => (i === 0 ? line : line.replace('REL-OK-', 'REL-ST-')))
    const streamQuery = 'vault=REL-STREAM&asOf=2026-01-01T00:00:00Z'
    const typedStream = await fetch(`${appUrl}/api/vault/bar-lists/typed-data?${streamQuery}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', cookie: admin.header(), origin: appUrl },
      body: streamed.join('\n'),
    })
    expect(typedStream.status).toBe(200)
    const streamSignature = await custodian.signTypedData(toViemTypedData((await typedStream.json()) as TypedDataJson))
    const progress = await fetch(`${appUrl}/api/admin/vault/bar-lists?${streamQuery}`, {
      method: 'POST',
      headers: {
        'content-type': 'text/csv',
        accept: 'application/x-ndjson',
        'custodian-signature': streamSignature,
        cookie: admin.header(),
        origin: appUrl,
      },
      body: streamed.join('\n'),
      signal: AbortSignal.timeout(60_000),
    })
    expect(progress.status).toBe(200)
    expect(progress.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
    // each line with the number of the read that brought it
    const seen: {
      read: number
      line: { type: string; phase?: string; done?: number; status?: number; body?: unknown }
    }[] = []
    const reader = progress.body?.getReader()
    const decoder = new TextDecoder()
    let buffered = ''
    for (let read = 0; reader; read++) {
      const { done, value } = await reader.read()
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true })
      const complete = buffered.split('\n')
      buffered = complete.pop() ?? ''
      for (const l of complete) if (l) seen.push({ read, line: JSON.parse(l) })
      if (done) break
    }
    const phases = seen.map((s) => s.line.phase ?? s.line.type)
    expect(phases.indexOf('check')).toBeGreaterThan(phases.lastIndexOf('receive'))
    expect(phases.indexOf('apply')).toBeGreaterThan(phases.indexOf('check'))
    expect(phases.at(-1)).toBe('result')
    expect(seen.filter((s) => s.line.phase === 'apply').at(-1)?.line.done).toBe(100_000)
    expect(seen.at(-1)?.line).toMatchObject({ status: 201, body: { vault: 'REL-STREAM', added: 100_000 } })
    // streamed: the check's line came in an earlier read than the result's, not all at the end
    const checkRead = seen.find((s) => s.line.phase === 'check')?.read ?? -1
    expect(checkRead).toBeGreaterThanOrEqual(0)
    expect(checkRead).toBeLessThan(seen.at(-1)?.read ?? -1)
    console.log(
      `[release test] bar lists to the web (160 MiB heap): ${JSON.stringify(measured)}; its resident memory now: ${JSON.stringify(residentMiB(webProc.child.pid))} MiB`,
    )
  }, 240_000)

  it("stops both on SIGTERM within ECS's stopTimeout (30 s)", async () => {
    if (!workerProc || !webProc) throw new Error('not started')
    const [w, s] = await Promise.all([workerProc.stop('SIGTERM', 35_000), webProc.stop('SIGTERM', 35_000)])
    timings.workerStopMs = w.ms
    timings.webStopMs = s.ms
    expect(w.signal, workerProc.output().slice(-2000)).toBeNull()
    expect(w.code).toBe(0)
    expect(w.ms).toBeLessThan(30_000)
    expect(s.ms).toBeLessThan(30_000)
    // the worker's health check now fails: no worker process lives in its folder
    const health = await runReleaseProcess({
      name: 'worker-healthcheck',
      cwd: worker.dir,
      args: ['healthcheck.mjs'],
      env: {},
    })
    expect(health.code).toBe(1)
  }, 60_000)

  it('refuses to start in production with any dev default left, naming the variable', async () => {
    if (!chain) throw new Error('no chain')
    const cases: { who: 'web' | 'worker'; what: string; env: Record<string, string>; variable: string }[] = [
      {
        who: 'web',
        what: 'AUTH_SECRET missing',
        env: webEnv({ AUTH_SECRET: '' }, await freePort()),
        variable: 'AUTH_SECRET',
      },
      {
        who: 'web',
        what: 'the dev AUTH_SECRET',
        env: webEnv({ AUTH_SECRET: DEV_AUTH_SECRET }, await freePort()),
        variable: 'AUTH_SECRET',
      },
      {
        who: 'web',
        what: 'METRICS_TOKEN missing',
        env: webEnv({ METRICS_TOKEN: '' }, await freePort()),
        variable: 'METRICS_TOKEN',
      },
      {
        who: 'web',
        what: 'a seeded staff password',
        env: webEnv({ DEV_STAFF_PASSWORD: 'staff-dev-password' }, await freePort()),
        variable: 'DEV_STAFF_PASSWORD',
      },
      {
        who: 'web',
        what: 'a seeded admin password',
        env: webEnv({ DEV_ADMIN_PASSWORD: 'admin-dev-password' }, await freePort()),
        variable: 'DEV_ADMIN_PASSWORD',
      },
      {
        who: 'worker',
        what: 'the local KMS endpoint',
        env: workerEnv({ MINTDESK_ALLOW_LOOPBACK_KMS: '' }),
        variable: 'KMS_ENDPOINT',
      },
      {
        who: 'worker',
        what: 'the dev KMS credentials',
        env: workerEnv({ AWS_ACCESS_KEY_ID: DEV_KMS_ACCESS_KEY }),
        variable: 'AWS_ACCESS_KEY_ID',
      },
      {
        who: 'worker',
        what: 'no fee ceiling',
        env: workerEnv({ MAX_FEE_PER_GAS: '' }),
        variable: 'MAX_FEE_PER_GAS',
      },
      {
        who: 'worker',
        what: 'a seeded admin password',
        env: workerEnv({ DEV_ADMIN_PASSWORD: 'admin-dev-password' }),
        variable: 'DEV_ADMIN_PASSWORD',
      },
      {
        who: 'worker',
        what: 'the dev AUTH_SECRET',
        env: workerEnv({ AUTH_SECRET: DEV_AUTH_SECRET }),
        variable: 'AUTH_SECRET',
      },
      // each process as its own database role, never the migration owner (invariant 7)
      {
        who: 'web',
        what: "the migration owner's login",
        env: webEnv({ DATABASE_URL: databaseUrl, PGPASSWORD: pgPassword }, await freePort()),
        variable: 'DATABASE_URL',
      },
      {
        who: 'worker',
        what: "the web's login",
        env: workerEnv({ DATABASE_URL: asRole(databaseUrl, 'mintdesk_web'), PGPASSWORD: rolePasswords.web }),
        variable: 'DATABASE_URL',
      },
    ]
    const results = await Promise.all(
      cases.map(async (c) => {
        const target = c.who === 'web' ? web : worker
        // an empty value is no value: drop it, as an unset variable
        const env = Object.fromEntries(Object.entries(c.env).filter(([, v]) => v !== ''))
        const r = await runReleaseProcess({
          name: c.who,
          cwd: target.dir,
          args: target.target.cmd.slice(1),
          env,
          hide: root,
          timeoutMs: 60_000,
        })
        return { ...c, ...r }
      }),
    )
    for (const r of results) {
      const label = `${r.who} with ${r.what}:\n${r.output.slice(-2000)}`
      expect(r.signal, label).toBeNull() // exited by itself, not killed at the timeout
      expect(r.code, label).not.toBe(0)
      expect(r.output, label).toContain(r.variable)
    }
    // and nothing answers on the ports the refused webs were given
    for (const r of results.filter((x) => x.who === 'web')) {
      await expect(
        fetch(`http://127.0.0.1:${r.env.PORT}/api/health`, { signal: AbortSignal.timeout(2_000) }),
        r.what,
      ).rejects.toThrow()
    }
  }, 180_000)
})

function asRole(url: string, user: string): string {
  const u = new URL(url)
  u.username = user
  return u.toString()
}

function withPassword(url: string, password: string): string {
  const u = new URL(url)
  u.password = password
  return u.toString()
}
