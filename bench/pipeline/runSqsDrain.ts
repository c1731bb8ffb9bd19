import path from 'node:path'
import postgres from 'postgres'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { DEV_STAFF_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { getKmsAddressOrThrow } from '../../scripts/stack/getKmsAddressOrThrow'
import { createKmsClient } from '../../worker/signer/createKmsClient'
import { createJsonPoster } from '../http/createJsonPoster'
import { signIn } from '../http/signIn'
import { createMintBodies, stockMintBodies } from '../intake/createMintBodies'
import { startBenchStack } from '../stack/startBenchStack'
import { sleep } from '../system/clock'
import { startCpuTimeline } from '../system/startCpuTimeline'
import { createOrderApprover } from './createOrderApprover'
import { type DrainResult, runDrain } from './runDrain'

export type SqsDrainResult = { drain: DrainResult; stackBootSeconds: number }

export type RunSqsDrainParameters = {
  root: string
  orders: number
  submitConcurrency: number
  blockTime: number
  log: (line: string) => void
}

/**
 * The SQS transport's row: the same drain as the scaling table's (1 signer, 1 worker process) on a
 * second, smaller stack booted with QUEUE_TRANSPORT=sqs (web and worker read it at start).
 * The orders go in through the API with no worker running and are approved through the
 * approve endpoint, which writes their mint_send messages to the outbox; the worker then
 * starts, its relay sends them to the embedded SQS endpoint (its own process, metered as
 * group `sqs`) and its consumer runs them through the same send path. Timed and metered
 * exactly as runDrain does for graphile-worker.
 */
export async function runSqsDrain(p: RunSqsDrainParameters): Promise<SqsDrainResult> {
  const t0 = performance.now()
  const log = (l: string) => p.log(`[sqs] ${l}`)
  const stack = await startBenchStack({
    root: p.root,
    dataDir: path.join(p.root, '.data', 'bench-sqs'),
    signers: 1,
    blockTime: p.blockTime,
    queueTransport: 'sqs',
    log,
  })
  const stackBootSeconds = (performance.now() - t0) / 1000
  log(`SQS stack up in ${stackBootSeconds.toFixed(0)} s: ${stack.url}`)
  const timeline = startCpuTimeline({ groups: stack.groups })
  const adminUrl = stack.env.DATABASE_ADMIN_URL as string
  const sql = postgres(adminUrl, { max: 2, onnotice: () => {} })
  try {
    const session = await signIn({
      baseUrl: stack.url,
      email: DEV_STAFF_EMAIL,
      password: stack.env.DEV_STAFF_PASSWORD as string,
    })
    const recipients = Array.from({ length: 16 }, () => privateKeyToAddress(generatePrivateKey()))
    const bodies = createMintBodies({ runId: `q${Date.now().toString(36)}`, recipients, capacity: p.orders + 100 })
    await stockMintBodies(sql, bodies, log)
    const kms = createKmsClient({ region: 'us-east-1', endpoint: stack.env.KMS_ENDPOINT })
    const workerSigners = await Promise.all(
      (stack.env.KMS_KEY_IDS as string).split(',').map((keyId) => getKmsAddressOrThrow(kms, { keyId })),
    )
    kms.destroy()
    // a worker registers its keys in `signers` when it starts: once, before the drain activates them. Its long
    // polls are short (1 s) and outlived before the queue fills: the emulator keeps a stopped consumer's open poll
    // running to its end and hands it the messages that arrive meanwhile (up to 10, then invisible for the 60 s
    // visibility timeout: the first quick run's drain took 61 s for that tail alone)
    await stack.startWorker({ SQS_WAIT_TIME_S: '1' })
    await stack.stopWorkers()
    await sleep(1_500)
    const poster = createJsonPoster({ session, maxSockets: Math.max(64, p.submitConcurrency) })
    const approver = await createOrderApprover({
      sql,
      baseUrl: stack.url,
      env: stack.env,
      maxSockets: Math.max(64, p.submitConcurrency),
    })
    try {
      const drain = await runDrain({
        sql,
        poster,
        bodies,
        workerSigners,
        signers: 1,
        workers: 1,
        orders: p.orders,
        submitConcurrency: p.submitConcurrency,
        approver,
        startWorker: stack.startWorker,
        stopWorkers: stack.stopWorkers,
        timeline,
        // the SQS row may be much slower than graphile's: room for ~2/s before giving up
        timeoutMs: Math.max(180_000, p.orders * 600),
        log,
      })
      return { drain, stackBootSeconds }
    } finally {
      poster.close()
      approver.close()
    }
  } finally {
    timeline.stop()
    await sql.end({ timeout: 5 })
    log('stopping the SQS stack')
    await stack.stop()
  }
}
