import { randomUUID } from 'node:crypto'
import path from 'node:path'
import postgres from 'postgres'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { createChainClient } from '../../lib/chain/createChainClient'
import { DEV_STAFF_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { MINT_REQUEST_ROLES } from '../../lib/web/mint/mintRequestRoles'
import { createJsonPoster } from '../http/createJsonPoster'
import { signIn } from '../http/signIn'
import { createMintBodies, stockMintBodies } from '../intake/createMintBodies'
import { createOrderApprover } from '../pipeline/createOrderApprover'
import { type NotificationBacklogResult, runNotificationBacklog } from '../pipeline/runNotificationBacklog'
import type { BenchSetup, MainStackContext } from '../runs/BenchRun'
import { startCpuTimeline } from '../system/startCpuTimeline'
import { startMemorySampler } from '../system/startMemorySampler'
import { readWorkerSigners } from './readWorkerSigners'
import { stackEnv } from './stackEnv'
import { startBenchStack } from './startBenchStack'

export type OpenMainStackParameters = BenchSetup & {
  /** mint orders the runs will send: the bars stocked for them */
  mintBodies: number
}

export type MainStack = {
  ctx: MainStackContext
  stackBootSeconds: number
  /** the notification windows the runs sent (sendNotifications, settleWorkers), in order */
  notifications: NotificationBacklogResult[]
  /** stops the meters, the clients and the stack */
  close: () => Promise<void>
}

/**
 * The stack every run of the main stack shares (startBenchStack, in .data/bench, with the most signers any drain
 * uses), and what they share on it: the CPU timeline and the memory sampler from its start, the staff signed in,
 * the mint bodies with their bars stocked, the chain's addresses, the worker's signers, the poster and the approvers.
 * SIGINT and SIGTERM stop it; close() stops it too.
 */
export async function openMainStack(p: OpenMainStackParameters): Promise<MainStack> {
  const { options: o, log } = p
  const t0 = performance.now()
  const stack = await startBenchStack({
    root: p.root,
    dataDir: path.join(p.root, '.data', 'bench'),
    signers: Math.max(...o.signerCounts),
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
  const sql = postgres(stackEnv(stack, 'DATABASE_ADMIN_URL'), { max: 2, onnotice: () => {} })
  const closers: Array<() => void> = []
  const close = async () => {
    for (const c of closers.splice(0)) c()
    timeline.stop()
    memory.stop()
    await sql.end({ timeout: 5 })
    log('stopping the stack')
    await stack.stop()
    process.off('SIGINT', stopOnSignal)
    process.off('SIGTERM', stopOnSignal)
  }
  try {
    const session = await signIn({
      baseUrl: stack.url,
      email: DEV_STAFF_EMAIL,
      password: stackEnv(stack, 'DEV_STAFF_PASSWORD'),
    })
    const [staff] = await sql<
      { id: string; session_version: number }[]
    >`select id::text as id, session_version from users where email = ${DEV_STAFF_EMAIL}`
    if (!staff) throw new Error('the dev staff user is missing')
    const recipients: Address[] = Array.from({ length: 16 }, () => privateKeyToAddress(generatePrivateKey()))
    const bodies = createMintBodies({ runId: `b${Date.now().toString(36)}`, recipients, capacity: p.mintBodies })
    await stockMintBodies(sql, bodies, log)
    const maxSockets = Math.max(64, o.submitConcurrency)
    const poster = createJsonPoster({ session, maxSockets })
    closers.push(() => poster.close())
    const approver = await createOrderApprover({ sql, baseUrl: stack.url, env: stack.env, maxSockets })
    closers.push(() => approver.close())
    const chainId = Number(stackEnv(stack, 'CHAIN_ID'))
    const rpcUrl = stackEnv(stack, 'RPC_URL')

    const notifications: NotificationBacklogResult[] = []
    const sendNotifications = async (leftBy: string) => {
      const started = stack.workers.length === 0
      if (started) await stack.startWorker()
      const n = await runNotificationBacklog({ sql, groups: stack.groups, timeoutMs: 420_000 })
      notifications.push(n)
      log(
        `notifications left by ${leftBy}: ${n.emails} emails, ${n.webhooks} webhooks in ${n.seconds.toFixed(1)} s` +
          (n.settled ? '' : ` (${n.left} still queued at the timeout)`),
      )
      if (started) await stack.stopWorkers()
    }
    const ctx: MainStackContext = {
      ...p,
      stack,
      sql,
      staff: {
        id: staff.id,
        email: DEV_STAFF_EMAIL,
        session,
        // the raw SQL orders as the signed-in staff user, checked as the intake checks it: a session id of its own,
        // never signed out (the statement checks it is not in revoked_sessions)
        sessionToCheck: {
          id: staff.id,
          email: DEV_STAFF_EMAIL,
          sessionVersion: staff.session_version,
          sessionId: randomUUID(),
          allowedRoles: MINT_REQUEST_ROLES,
        },
      },
      bodies,
      chain: {
        client: createChainClient({ rpcUrl, chainId, pollingMs: 50 }),
        chainId,
        rpcUrl,
        tokenAddress: stackEnv(stack, 'TOKEN_ADDRESS') as Address,
        minterAddress: stackEnv(stack, 'MINTER_ADDRESS') as Address,
        kmsEndpoint: stackEnv(stack, 'KMS_ENDPOINT'),
        recipients,
      },
      workerSigners: await readWorkerSigners(stack),
      poster,
      approver,
      timeline,
      memory,
      measured: {},
      sendNotifications,
      settleWorkers: async (leftBy) => {
        if (stack.workers.length === 0) return
        await sendNotifications(leftBy)
        await stack.stopWorkers()
      },
    }
    return { ctx, stackBootSeconds, notifications, close }
  } catch (error) {
    await close()
    throw error
  }
}
