import { mkdirSync, openSync } from 'node:fs'
import path from 'node:path'
import { CreateKeyCommand } from '@aws-sdk/client-kms'
import { DEV_DATABASE_PASSWORDS } from '../../cli/config/devDatabasePasswords'
import { createDb } from '../../db/client'
import { migrate } from '../../db/migrate'
import { devPasswords } from '../../lib/config/devPasswords'
import { DEV_AUTH_SECRET, DEV_KMS_ACCESS_KEY, DEV_METRICS_TOKEN } from '../../lib/config/loadConfig'
import { seedDevUsers } from '../../lib/web/auth/seedDevUsers'
import { createKmsClient } from '../../worker/signer/createKmsClient'
import { createSqsClient } from '../../worker/sqs/createSqsClient'
import { ANVIL_DEV_PRIVATE_KEY, startAnvil } from './anvil'
import { bindDevSigningKeys } from './bindDevSigningKeys'
import { buildWeb } from './buildWeb'
import { databaseUrlAs } from './databaseUrlAs'
import { ensureToken } from './deployToken'
import { readEnvFile, writeEnvFile } from './envFile'
import { pickPort } from './freePort'
import { getKmsAddressOrThrow } from './getKmsAddressOrThrow'
import { startKmsServer } from './kmsServer'
import { QUIET_NODE_VERSION_ENV } from './nodeVersionNotice'
import { startPostgres } from './postgres'
import type { PreparedRelease } from './prepareRelease'
import { type ManagedChild, spawnManaged, stopLeftovers, type Tracked, writePidFile } from './processes'
import { restoreSqsQueues } from './restoreSqsQueues'
import { seedDevBarList } from './seedDevBarList'
import { seedDevRecipients } from './seedDevRecipients'
import { startSmtpSink } from './smtpSink'
import { startSqsServer } from './sqs'
import { portOf, waitForHttp } from './stackProcessHelpers'
import { webRun, workerRun } from './stackRuns'
import { startStackRpc } from './startStackRpc'

export type StartStackParameters = {
  root: string
  /** .data by default; the e2e tests use their own */
  dataDir: string
  /** the environment the user gave; a variable set here switches its embedded default off */
  env: Record<string, string | undefined>
  port?: number
  /** skip starting the web (tests that only need the back end) */
  web?: boolean
  /** how many worker processes to start (default 1) */
  workers?: number
  /** seconds between blocks on the local chain; 0 = mine each transaction at once */
  blockTime?: number
  /** extra environment for the worker and web children (test failpoints, tuning) */
  childEnv?: Record<string, string>
  log?: (line: string) => void
  /** replace a worker that exits on its own (npm start); tests that kill workers leave it off */
  restartWorkers?: boolean
  /** where the children's output goes: a file (tests), or this process's stdout/stderr */
  childLogFile?: string
  /**
   * run the web and the workers as the images do (prepareRelease: `node server.js`, `node worker.mjs`,
   * the Dockerfile's NODE_OPTIONS) instead of `next start` and tsx: the bench measures what ships
   */
  release?: PreparedRelease
}

export type Stack = {
  url: string
  env: Record<string, string>
  dataDir: string
  startWorker: (extraEnv?: Record<string, string>) => ManagedChild
  workers: ManagedChild[]
  /**
   * stops the web and starts it again with `extraEnv` (a setting read at start, e.g. tracing); resolves when it answers
   */
  restartWeb: (extraEnv?: Record<string, string>) => Promise<ManagedChild>
  stop: () => Promise<void>
}

/**
 * Boots the whole system on embedded defaults: Postgres, migrations, anvil, the local
 * KMS endpoint (a key, the token deployed, the signer granted and funded), dev users,
 * the web (production build) and the worker(s). Each default is skipped when its
 * variable is set. Used by `npm start` and by the end-to-end tests.
 */
export async function startStack(p: StartStackParameters): Promise<Stack> {
  const log = p.log ?? ((l: string) => console.log(`[stack] ${l}`))
  const dataDir = path.resolve(p.dataDir)
  mkdirSync(dataDir, { recursive: true, mode: 0o755 })
  const envFile = path.join(dataDir, 'stack.env')
  const pidFile = path.join(dataDir, 'pids.json')
  const previous = readEnvFile(envFile)
  const given = p.env
  const tracked: Tracked[] = []
  const stops: Array<{ name: string; stop: () => Promise<void> }> = []
  let stopping = false
  const stopAll = async () => {
    stopping = true
    for (const s of [...stops].reverse()) {
      log(`stopping ${s.name}`)
      await s.stop().catch((err: unknown) => log(`stopping ${s.name} failed: ${String(err)}`))
    }
    writePidFile(pidFile, [])
  }

  try {
    await stopLeftovers(pidFile, log)

    // 1. Postgres. Migrations and the dev seeds connect as the owner (DATABASE_ADMIN_URL, or
    // a given DATABASE_URL: it must be able to create roles); the web and the workers as
    // their own roles, mintdesk_web and mintdesk_worker, with the dev passwords (db/roles)
    let databaseUrl = given.DATABASE_ADMIN_URL ?? given.DATABASE_URL
    if (!databaseUrl) {
      const pg = await startPostgres({
        dataDir: path.join(dataDir, 'pg'),
        preferredPort: Number(previous.MINTDESK_PG_PORT) || undefined,
        detached: true,
      })
      stops.push({ name: 'postgres', stop: pg.stop })
      tracked.push({ name: 'postgres', pid: pg.pid, cmd: 'postgres' })
      writePidFile(pidFile, tracked)
      databaseUrl = pg.url
      log(`postgres on port ${pg.port} (data in ${pg.dataDir})`)
    }
    await migrate({
      databaseUrl,
      roles: { web: { password: DEV_DATABASE_PASSWORDS.web }, worker: { password: DEV_DATABASE_PASSWORDS.worker } },
    })
    const webDatabaseUrl = databaseUrlAs(databaseUrl, { role: 'web' })
    const workerDatabaseUrl = databaseUrlAs(databaseUrl, { role: 'worker' })

    // 2. the chain
    let rpcUrl = given.RPC_URL
    const chainId = given.CHAIN_ID ?? '31337'
    if (!rpcUrl) {
      const anvil = await startAnvil({
        stateFile: path.join(dataDir, 'anvil', 'state.json'),
        port: await pickPort(Number(previous.MINTDESK_ANVIL_PORT) || undefined),
        blockTime: p.blockTime ?? 1,
        chainId: Number(chainId),
        detached: true,
      })
      stops.push({ name: 'anvil', stop: anvil.stop })
      if (anvil.process.pid) tracked.push({ name: 'anvil', pid: anvil.process.pid, cmd: 'anvil' })
      writePidFile(pidFile, tracked)
      rpcUrl = anvil.rpcUrl
      log(`anvil at ${rpcUrl}`)
    }
    // RPC_FAULT_PROXY=1 or RPC_FAULT_*: the fault proxy in front of the chain (scripts/stack/startStackRpc.ts)
    const { workerRpcUrl, env: rpcUrlsEnv, stop: stopRpcProxy } = await startStackRpc({ rpcUrl, given, log })
    if (stopRpcProxy) stops.push({ name: 'rpc fault proxy', stop: stopRpcProxy })

    // 3. the signing keys
    let kmsEndpoint = given.KMS_ENDPOINT
    let kmsKeyIds = given.KMS_KEY_IDS ?? given.KMS_KEY_ID
    const awsRegion = given.AWS_REGION ?? 'us-east-1'
    const kmsCredentials: Record<string, string> = {}
    if (!kmsKeyIds) {
      if (!kmsEndpoint) {
        const kms = await startKmsServer({
          dataDir: path.join(dataDir, 'kms'),
          port: await pickPort(Number(previous.MINTDESK_KMS_PORT) || undefined),
          // KMS_LOCAL_SIGN_RATE=N: N Sign calls per second, the rest ThrottlingException (as KMS at its quota)
          signRate: Number(given.KMS_LOCAL_SIGN_RATE) || undefined,
        })
        stops.push({ name: 'kms endpoint', stop: kms.stop })
        kmsEndpoint = kms.url
        log(`local KMS endpoint at ${kmsEndpoint}`)
      }
      kmsCredentials.AWS_ACCESS_KEY_ID = given.AWS_ACCESS_KEY_ID ?? DEV_KMS_ACCESS_KEY
      kmsCredentials.AWS_SECRET_ACCESS_KEY = given.AWS_SECRET_ACCESS_KEY ?? DEV_KMS_ACCESS_KEY
      Object.assign(process.env, kmsCredentials)
      const client = createKmsClient({ region: awsRegion, endpoint: kmsEndpoint })
      kmsKeyIds = previous.KMS_KEY_IDS
      if (kmsKeyIds) {
        // keys persist in .data/kms; a lost key file means new keys
        try {
          await Promise.all(kmsKeyIds.split(',').map((keyId) => getKmsAddressOrThrow(client, { keyId })))
        } catch {
          kmsKeyIds = undefined
        }
      }
      if (!kmsKeyIds) {
        const count = Number(given.MINTDESK_SIGNERS ?? 1)
        const ids: string[] = []
        for (let i = 0; i < count; i++) {
          const made = await client.send(
            new CreateKeyCommand({
              KeySpec: 'ECC_SECG_P256K1',
              KeyUsage: 'SIGN_VERIFY',
              Description: `mintdesk dev signer ${i + 1}`,
            }),
          )
          if (!made.KeyMetadata?.KeyId) throw new Error('CreateKey returned no KeyId')
          ids.push(made.KeyMetadata.KeyId)
        }
        kmsKeyIds = ids.join(',')
      }
    }

    // 3b. QUEUE_TRANSPORT=sqs: the embedded SQS endpoint, the queue
    // and its DLQ (maxReceiveCount 5), unless SQS_QUEUE_URL is given
    const sqsEnv: Record<string, string> = {}
    if (given.QUEUE_TRANSPORT === 'sqs') {
      let sqsEndpoint = given.SQS_ENDPOINT
      let queueUrl = given.SQS_QUEUE_URL
      let dlqUrl = given.SQS_DLQ_URL
      if (!queueUrl || !dlqUrl) {
        const sqs = await startSqsServer({ port: await pickPort(Number(previous.MINTDESK_SQS_PORT) || undefined) })
        stops.push({ name: 'sqs endpoint', stop: sqs.stop })
        ;({ url: sqsEndpoint, queueUrl, dlqUrl } = sqs)
        const client = createSqsClient({ region: awsRegion, endpoint: sqsEndpoint })
        const { db, close } = createDb({ url: databaseUrl, max: 1 })
        try {
          const restored = await restoreSqsQueues(db, client, { dlqUrl })
          log(
            `embedded SQS endpoint at ${sqsEndpoint}; queue ${queueUrl} (outbox rows to send again: ${restored.resent}, dead letters restored: ${restored.deadLetters})`,
          )
        } finally {
          client.destroy()
          await close()
        }
      }
      Object.assign(sqsEnv, {
        QUEUE_TRANSPORT: 'sqs',
        SQS_QUEUE_URL: queueUrl,
        SQS_DLQ_URL: dlqUrl,
        ...(sqsEndpoint ? { SQS_ENDPOINT: sqsEndpoint, MINTDESK_SQS_PORT: portOf(sqsEndpoint) } : {}),
      })
    }

    if (!kmsKeyIds) throw new Error('no KMS key ids')
    const keyIds: string = kmsKeyIds

    // 3c. email: an SMTP sink keeping each message as .data/mail/*.eml, unless SMTP_URL is given
    let smtpUrl = given.SMTP_URL
    if (!smtpUrl) {
      const sink = await startSmtpSink({
        mailDir: path.join(dataDir, 'mail'),
        port: await pickPort(Number(previous.MINTDESK_SMTP_PORT) || undefined),
      })
      stops.push({ name: 'smtp sink', stop: sink.stop })
      smtpUrl = sink.url
      log(`SMTP sink at ${smtpUrl}: each email is a .eml file in ${sink.mailDir}`)
    }

    // 4. the token and its minter (GoldMinter, the sole holder of the token's roles)
    let tokenAddress = given.TOKEN_ADDRESS
    let minterAddress = given.MINTER_ADDRESS
    if (!tokenAddress || !minterAddress) {
      const client = createKmsClient({ region: awsRegion, endpoint: kmsEndpoint })
      const signerAddresses = await Promise.all(
        keyIds.split(',').map((keyId) => getKmsAddressOrThrow(client, { keyId })),
      )
      const deployed = await ensureToken({
        rpcUrl,
        chainId: Number(chainId),
        deployerPrivateKey: ANVIL_DEV_PRIVATE_KEY,
        signerAddresses,
        tokenAddress: previous.TOKEN_ADDRESS as `0x${string}` | undefined,
        minterAddress: previous.MINTER_ADDRESS as `0x${string}` | undefined,
      })
      tokenAddress = deployed.tokenAddress
      minterAddress = deployed.minterAddress
      log(
        `GoldToken at ${tokenAddress}, GoldMinter at ${minterAddress}; relayers (gas only): ${signerAddresses.join(', ')}`,
      )
    }

    if (!tokenAddress || !minterAddress) throw new Error('no token or minter address')

    // 5. dev users and the dev bar list
    const passwords = devPasswords(given)
    {
      const { db, close } = createDb({ url: databaseUrl, max: 1 })
      try {
        await seedDevUsers(db, {
          staffPassword: passwords.DEV_STAFF_PASSWORD,
          approverPassword: passwords.DEV_APPROVER_PASSWORD,
          approver2Password: passwords.DEV_APPROVER2_PASSWORD,
          adminPassword: passwords.DEV_ADMIN_PASSWORD,
          admin2Password: passwords.DEV_ADMIN2_PASSWORD,
          auditorPassword: passwords.DEV_AUDITOR_PASSWORD,
        })
        // a generated dev bar list for LDN-1 (once), so mints can be requested at once
        await seedDevBarList(db, {
          log,
          domain: { chainId: Number(chainId), verifyingContract: minterAddress as `0x${string}` },
        })
        // the dev signing keys bound to their users (they are approvers and admins on chain from the deploy)
        await bindDevSigningKeys(db, { log })
        // anvil's accounts 1 to 9 on the recipient allowlist (once); the limits stay unset
        await seedDevRecipients(db, { log })
      } finally {
        await close()
      }
    }

    const port = p.port ?? (Number(given.PORT) || 3000)
    const env: Record<string, string> = {
      MINTDESK_DEV: '1',
      // what `npm run worker` joins with; the web gets WEB_DATABASE_URL as its DATABASE_URL
      DATABASE_URL: workerDatabaseUrl,
      WORKER_DATABASE_URL: workerDatabaseUrl,
      WEB_DATABASE_URL: webDatabaseUrl,
      // the owner's: migrations, the dev seeds and test fixtures (local stack only)
      DATABASE_ADMIN_URL: databaseUrl,
      RPC_URL: rpcUrl,
      ...rpcUrlsEnv,
      CHAIN_ID: chainId,
      TOKEN_ADDRESS: tokenAddress,
      MINTER_ADDRESS: minterAddress,
      KMS_KEY_IDS: keyIds,
      AWS_REGION: awsRegion,
      ...(kmsEndpoint ? { KMS_ENDPOINT: kmsEndpoint } : {}),
      ...kmsCredentials,
      CONFIRMATIONS: given.CONFIRMATIONS ?? '1',
      RPC_POLLING_MS: given.RPC_POLLING_MS ?? (given.RPC_URL ? '1000' : '100'),
      AUTH_SECRET: given.AUTH_SECRET ?? DEV_AUTH_SECRET,
      METRICS_TOKEN: given.METRICS_TOKEN ?? DEV_METRICS_TOKEN,
      ...passwords,
      PORT: String(port),
      MINTDESK_PG_PORT: portOf(databaseUrl),
      MINTDESK_ANVIL_PORT: portOf(rpcUrl),
      ...(kmsEndpoint ? { MINTDESK_KMS_PORT: portOf(kmsEndpoint) } : {}),
      ...sqsEnv,
      SMTP_URL: smtpUrl,
      ...(given.SMTP_URL ? {} : { MINTDESK_SMTP_PORT: portOf(smtpUrl) }),
      NOTIFY_LINK_BASE_URL: given.NOTIFY_LINK_BASE_URL ?? `http://localhost:${port}`,
    }
    writeEnvFile(envFile, env, 'written by npm start: the live settings of the local stack (npm run worker reads them)')

    // no child repeats the AWS SDK's Node notice: npm start names Node once (scripts/stack/nodeVersionNotice.ts)
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...env,
      ...QUIET_NODE_VERSION_ENV,
      ...p.childEnv,
      NODE_ENV: 'production',
    }
    // a process gets its own login only (below), never the owner's or the other process's
    for (const key of ['DATABASE_ADMIN_URL', 'WEB_DATABASE_URL', 'WORKER_DATABASE_URL']) delete childEnv[key]
    const stdio = p.childLogFile ? openSync(p.childLogFile, 'a') : 'inherit'
    const workers: ManagedChild[] = []
    const startWorker = (extraEnv: Record<string, string> = {}) => {
      const run = workerRun({ release: p.release?.worker, root: p.root, childEnv })
      const w = spawnManaged('worker', process.execPath, run.args, {
        cwd: run.cwd,
        env: { ...childEnv, DATABASE_URL: workerDatabaseUrl, RPC_URL: workerRpcUrl, ...extraEnv, ...run.env },
        stdio: ['ignore', stdio, stdio],
      })
      workers.push(w)
      if (w.child.pid) tracked.push({ name: 'worker', pid: w.child.pid, cmd: run.cmd })
      writePidFile(pidFile, tracked)
      w.child.once('exit', (code, signal) => {
        if (stopping) return
        log(`a worker exited (code ${code}, signal ${signal})${p.restartWorkers ? '; starting another in 2 s' : ''}`)
        // like ECS: a dead worker is replaced; its jobs are taken over after its heartbeat stops
        if (p.restartWorkers) setTimeout(() => !stopping && startWorker(extraEnv), 2_000).unref()
      })
      return w
    }

    const url = `http://localhost:${port}`
    let web: ManagedChild | undefined
    const startWeb = async (extraEnv: Record<string, string> = {}) => {
      const run = webRun({ release: p.release?.web, root: p.root, port, childEnv })
      const w = spawnManaged('web', process.execPath, run.args, {
        cwd: run.cwd,
        env: { ...childEnv, DATABASE_URL: webDatabaseUrl, ...extraEnv, ...run.env },
        stdio: ['ignore', stdio, stdio],
      })
      web = w
      if (w.child.pid) tracked.push({ name: 'web', pid: w.child.pid, cmd: run.cmd })
      writePidFile(pidFile, tracked)
      await waitForHttp(`${url}/api/ready`, 120_000, w)
      return w
    }
    if (p.web !== false) {
      if (!p.release?.web) buildWeb({ root: p.root, log })
      stops.push({ name: 'web', stop: async () => void (await web?.stop(10_000)) })
      await startWeb()
    }
    const restartWeb = async (extraEnv: Record<string, string> = {}) => {
      await web?.stop(10_000)
      return startWeb(extraEnv)
    }
    // workers stop first (they hold jobs), so they are pushed last
    stops.push({ name: 'workers', stop: async () => void (await Promise.all(workers.map((w) => w.stop(35_000)))) })
    for (let i = 0; i < (p.workers ?? 1); i++) startWorker()

    return { url, env, dataDir, startWorker, workers, restartWeb, stop: stopAll }
  } catch (err) {
    await stopAll()
    throw err
  }
}
