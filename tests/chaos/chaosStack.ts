import { cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type postgres from 'postgres'
import type { Address, PublicClient } from 'viem'
import { createDb } from '@/db/client'
import { createChainClient } from '@/lib/chain/createChainClient'
import { type StartAnvilReturnType, startAnvil } from '@/scripts/stack/anvil'
import { buildWeb } from '@/scripts/stack/buildWeb'
import { freePort } from '@/scripts/stack/freePort'
import type { SignThrottle } from '@/scripts/stack/kms/throttleSign'
import { startKmsServer } from '@/scripts/stack/kmsServer'
import { type EmbeddedPostgres, startPostgres } from '@/scripts/stack/postgres'
import { type ManagedChild, spawnManaged } from '@/scripts/stack/processes'
import { type RpcFaultProxy, startRpcFaultProxy } from '@/scripts/stack/rpcFaultProxy'
import { startStack } from '@/scripts/stack/startStack'
import { workerEnv } from '@/tests/helpers/workerProcess'
import type { AnvilControl, PostgresControl } from './scenarios'
import { createWorkerPool, type WorkerPool } from './workerPool'

/**
 * The long form's stack: like `npm start` (scripts/stack/startStack.ts does the KMS
 * endpoint, the token, the signers and the dev users), but with Postgres and anvil
 * started HERE, so the chaos driver holds them and can stop and start them on the same
 * data and port, and with the web run from a private copy of the production build (a
 * `next build` by someone else in the checkout must not pull the files from under a
 * running server). Workers are separate processes in a WorkerPool.
 */

export type ChaosStack = {
  baseUrl: string
  env: Record<string, string>
  dataDir: string
  /** checks only (the web and the workers have their own pools) */
  sql: postgres.Sql
  chain: PublicClient
  tokenAddress: Address
  signers: Address[]
  pg: PostgresControl
  anvil: AnvilControl
  pool: WorkerPool
  /** the environment every worker of the pool runs with (a worker started beside the pool uses it too) */
  workerEnv: Record<string, string>
  /** the KMS endpoint's Sign quota: off until a scenario sets a rate */
  kmsThrottle: SignThrottle
  /** the workers reach anvil through this fault proxy: no faults until a scenario sets them */
  rpcProxy: RpcFaultProxy
  /** the web's and the KMS endpoint's output */
  childLogFile: string
  kmsKeysFile: string
  stop: () => Promise<void>
}

/** the folder under .data/chaos that holds the web's standalone copy */
export const WEB_SNAPSHOT = 'web'

/**
 * Builds the web if its sources changed (scripts/stack/buildWeb.ts) and copies the
 * standalone server with its static files into `into`. Retried when another `next build`
 * holds the checkout's .next at that moment.
 */
export async function prepareWebSnapshot({
  root,
  into,
  log,
}: {
  root: string
  into: string
  log: (l: string) => void
}): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      buildWeb({ root, log })
      const buildId = readFileSync(path.join(root, '.next', 'BUILD_ID'), 'utf8')
      rmSync(into, { recursive: true, force: true })
      cpSync(path.join(root, '.next', 'standalone'), into, { recursive: true, verbatimSymlinks: true })
      cpSync(path.join(root, '.next', 'static'), path.join(into, '.next', 'static'), { recursive: true })
      if (existsSync(path.join(root, 'public')))
        cpSync(path.join(root, 'public'), path.join(into, 'public'), { recursive: true })
      const after = readFileSync(path.join(root, '.next', 'BUILD_ID'), 'utf8')
      if (after !== buildId || readFileSync(path.join(into, '.next', 'BUILD_ID'), 'utf8') !== buildId)
        throw new Error('the build changed while it was copied')
      log(`web snapshot of build ${buildId} in ${into}`)
      return buildId
    } catch (error) {
      if (attempt >= 4) throw error
      log(
        `web snapshot failed (${error instanceof Error ? error.message : String(error)}): another build may be running, retrying in 30 s`,
      )
      await new Promise((r) => setTimeout(r, 30_000))
    }
  }
}

export type StartChaosStackParameters = {
  root: string
  /** this run's folder (emptied first) */
  dataDir: string
  /** a folder prepared by prepareWebSnapshot */
  webDir: string
  workers: number
  /** extra worker environment (timings) */
  workerEnv?: Record<string, string>
  log: (l: string) => void
}

export async function startChaosStack(p: StartChaosStackParameters): Promise<ChaosStack> {
  const { log } = p
  rmSync(p.dataDir, { recursive: true, force: true })
  mkdirSync(path.join(p.dataDir, 'anvil'), { recursive: true })
  const childLogFile = path.join(p.dataDir, 'children.log')
  const stops: (() => Promise<void>)[] = []
  const stopAll = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch((e: unknown) => log(`stop failed: ${String(e)}`))
  }
  try {
    // Postgres and anvil held here, so they can be restarted on the same data and port
    const pgDataDir = path.join(p.dataDir, 'pg')
    let pg: EmbeddedPostgres = await startPostgres({ dataDir: pgDataDir, database: 'mintdesk' })
    const pgPort = pg.port
    stops.push(() => pg.stop())
    const stateFile = path.join(p.dataDir, 'anvil', 'state.json')
    let anvil: StartAnvilReturnType = await startAnvil({ stateFile, blockTime: 1, chainId: 31337 })
    const anvilPort = anvil.port
    stops.push(() => anvil.stop())

    // the KMS endpoint and the RPC fault proxy held here too, so the production faults can be switched on
    const kms = await startKmsServer({ dataDir: path.join(p.dataDir, 'kms') })
    stops.push(() => kms.stop())
    const rpcProxy = await startRpcFaultProxy({ target: anvil.rpcUrl })
    stops.push(() => rpcProxy.stop())

    const stack = await startStack({
      root: p.root,
      dataDir: p.dataDir,
      env: {
        DATABASE_URL: pg.url,
        RPC_URL: anvil.rpcUrl,
        CHAIN_ID: '31337',
        RPC_POLLING_MS: '100',
        MINTDESK_SIGNERS: '2',
        KMS_ENDPOINT: kms.url,
        // QUEUE_TRANSPORT=sqs npm run test:chaos: mint_send through the embedded SQS endpoint
        ...(process.env.QUEUE_TRANSPORT === 'sqs' ? { QUEUE_TRANSPORT: 'sqs' } : {}),
      },
      web: false,
      workers: 0,
      childLogFile,
      log: (l) => log(`[stack] ${l}`),
    })
    stops.push(() => stack.stop())

    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    const out = openSync(childLogFile, 'a')
    const web: ManagedChild = spawnManaged('web', process.execPath, [path.join(p.webDir, 'server.js')], {
      cwd: p.webDir,
      // the web as its own database role (mintdesk_web), without the owner's login
      env: {
        ...process.env,
        ...stack.env,
        DATABASE_URL: stack.env.WEB_DATABASE_URL,
        DATABASE_ADMIN_URL: undefined,
        WORKER_DATABASE_URL: undefined,
        PORT: String(port),
        HOSTNAME: '127.0.0.1',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', out, out],
    })
    stops.push(() => web.stop(10_000))
    await waitForReady(`${baseUrl}/api/ready`, web, 60_000)
    log(`web (standalone) at ${baseUrl}`)

    const env = stack.env
    const poolEnv = workerEnv({
      databaseUrl: pg.url,
      chain: {
        rpcUrl: rpcProxy.url,
        chainId: 31337,
        tokenAddress: env.TOKEN_ADDRESS as Address,
        minterAddress: env.MINTER_ADDRESS as Address,
        kmsEndpoint: env.KMS_ENDPOINT,
        kmsKeyIds: env.KMS_KEY_IDS.split(','),
      },
      // the SQS transport's settings, when the stack runs it; short
      // visibility so a killed worker's message comes back soon
      env: {
        ...(env.QUEUE_TRANSPORT === 'sqs'
          ? {
              QUEUE_TRANSPORT: 'sqs',
              SQS_QUEUE_URL: env.SQS_QUEUE_URL,
              SQS_DLQ_URL: env.SQS_DLQ_URL,
              SQS_ENDPOINT: env.SQS_ENDPOINT,
              SQS_VISIBILITY_TIMEOUT_S: '10',
              SQS_WAIT_TIME_S: '1',
            }
          : {}),
        ...p.workerEnv,
      },
    })
    const pool = createWorkerPool({ env: poolEnv, prefix: 'chaos' })
    stops.push(async () => {
      await pool.stopAll()
    })
    await Promise.all(Array.from({ length: p.workers }, () => pool.start()))

    const checks = createDb({ url: pg.url, max: 3, name: 'chaos-checks' })
    stops.push(() => checks.close())
    const chain = createChainClient({ rpcUrl: anvil.rpcUrl, chainId: 31337, pollingMs: 100 })
    const signers = (await checks.sql<{ address: Address }[]>`select address from signers order by address`).map(
      (r) => r.address,
    )

    return {
      baseUrl,
      env,
      dataDir: p.dataDir,
      sql: checks.sql,
      chain,
      tokenAddress: env.TOKEN_ADDRESS as Address,
      signers,
      pg: {
        stop: () => pg.stop(),
        start: async () => {
          pg = await startPostgres({ dataDir: pgDataDir, database: 'mintdesk', preferredPort: pgPort })
          if (pg.port !== pgPort) throw new Error(`Postgres came back on port ${pg.port}, not ${pgPort}`)
        },
      },
      anvil: {
        rpcUrl: anvil.rpcUrl,
        stateFile,
        kill: async () => {
          const exited = new Promise((r) => anvil.process.once('exit', r))
          anvil.process.kill('SIGKILL')
          await exited
        },
        start: async () => {
          anvil = await startAnvil({ stateFile, port: anvilPort, blockTime: 1, chainId: 31337 })
        },
      },
      pool,
      workerEnv: poolEnv,
      kmsThrottle: kms.signThrottle,
      rpcProxy,
      childLogFile,
      kmsKeysFile: path.join(p.dataDir, 'kms', 'keys.json'),
      stop: stopAll,
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}

async function waitForReady(url: string, child: ManagedChild, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.child.exitCode !== null) throw new Error(`the web exited with code ${child.child.exitCode}`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (res.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
}
