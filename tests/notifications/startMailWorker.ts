import os from 'node:os'
import path from 'node:path'
import { type SmtpSink, startSmtpSink } from '@/scripts/stack/smtpSink'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/** A test database with its users, a chain, the local SMTP sink and a real worker process sending to it. */
export type MailWorker = {
  t: TestDatabase
  u: TestUsers
  chain: ChainFixture
  sink: SmtpSink
  worker: WorkerProcess
  stop: () => Promise<void>
}

/** Starts a MailWorker; `env` adds to the worker's settings (SMTP_URL is the sink's). */
export async function startMailWorker({
  name,
  env = {},
}: {
  name: string
  env?: Record<string, string>
}): Promise<MailWorker> {
  const [t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  let sink: SmtpSink | undefined
  let worker: WorkerProcess | undefined
  try {
    const u = await insertTestUsers(t.db)
    sink = await startSmtpSink({ mailDir: path.join(os.tmpdir(), `mintdesk-${name}-${Date.now()}-${process.pid}`) })
    worker = startWorkerProcess({
      name,
      env: workerEnv({ databaseUrl: t.url, chain, env: { SMTP_URL: sink.url, ...env } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
    return running({ t, u, chain, sink, worker })
  } catch (error) {
    await worker?.stop('SIGKILL').catch(() => {})
    await sink?.stop()
    await chain.stop()
    await t.drop()
    throw error
  }
}

function running({ t, u, chain, sink, worker }: Omit<MailWorker, 'stop'>): MailWorker {
  return {
    t,
    u,
    chain,
    sink,
    worker,
    stop: async () => {
      await worker.stop('SIGTERM')
      await sink.stop()
      await chain.stop()
      await t.drop()
    },
  }
}
