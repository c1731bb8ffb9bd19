import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { WORKER_ENTRIES } from '@/scripts/build-release'
import { databaseUrlAs } from '@/scripts/stack/databaseUrlAs'
import type { ChainFixture } from '@/tests/fixtures/chain'

export type WorkerEnvParameters = {
  /** the test database (the owner's URL): the worker connects to it as mintdesk_worker */
  databaseUrl: string
  chain: Pick<ChainFixture, 'rpcUrl' | 'chainId' | 'tokenAddress' | 'minterAddress' | 'kmsEndpoint' | 'kmsKeyIds'>
  /** instead of the chain's own RPC URL (a fault-injecting proxy) */
  rpcUrl?: string
  /** overrides and extra variables */
  env?: Record<string, string>
}

/**
 * The environment of a worker process in the integration tests: the test's database
 * (as the worker's own role, mintdesk_worker, so every worker test runs on its grants),
 * chain (its token and minter) and KMS endpoint, dev mode, and fast timings (heartbeat 500 ms, stale after
 * 3 s, polling 100-200 ms) so failures are noticed in seconds.
 */
export function workerEnv({ databaseUrl, chain, rpcUrl, env = {} }: WorkerEnvParameters): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: 'test',
    MINTDESK_DEV: '1',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrlAs(databaseUrl, { role: 'worker' }),
    RPC_URL: rpcUrl ?? chain.rpcUrl,
    CHAIN_ID: String(chain.chainId),
    TOKEN_ADDRESS: chain.tokenAddress,
    MINTER_ADDRESS: chain.minterAddress,
    KMS_ENDPOINT: chain.kmsEndpoint,
    KMS_KEY_IDS: chain.kmsKeyIds.join(','),
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'mintdesk-local',
    AWS_SECRET_ACCESS_KEY: 'mintdesk-local',
    CONFIRMATIONS: '1',
    RPC_POLLING_MS: '100',
    WORKER_CONCURRENCY: '8',
    WORKER_HEARTBEAT_MS: '500',
    WORKER_STALE_AFTER_MS: '3000',
    WORKER_POLL_MS: '200',
    CONFIRM_POLL_MS: '200',
    NONCE_HEALTH_MS: '1000',
    NONCE_STALL_AFTER_MS: '4000',
    STUCK_AFTER_MS: '60000',
    WORKER_SHUTDOWN_GRACE_MS: '20000',
    ...env,
  }
}

export type LogLine = Record<string, unknown> & { msg?: string; level?: string }

export type WorkerProcess = {
  name: string
  child: ChildProcess
  pid: number
  /** parsed JSON log lines so far (stdout) */
  lines: LogLine[]
  /** resolves when the process has exited */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** resolves with the first log line matching, rejects after timeoutMs or when the process exits first */
  waitForLine: (match: (line: LogLine) => boolean, timeoutMs?: number) => Promise<LogLine>
  /** SIGTERM (or the given signal); resolves with the exit */
  stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** the path of the full log (stdout and stderr) */
  logFile: string
}

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const LOG_DIR = path.join(os.tmpdir(), 'mintdesk-worker-logs')

/** set by tests/setup/globalSetup.ts: the folder of the worker's release bundles the test run built */
export const RELEASE_WORKER_DIR_ENV = 'MINTDESK_TEST_RELEASE_WORKER_DIR'

/**
 * Node's arguments that run one of the worker image's programs (scripts/build-release.ts WORKER_ENTRIES), from the
 * repository's root: its bundle as the image runs it (`worker.mjs`) when the test run built them (every Vitest run:
 * a start then loads one file, not every module of the worker through tsx's loader), else its source through tsx
 * (a script outside Vitest, such as the chaos suite's). The bundle's stack traces are mapped back to the sources
 * (--enable-source-maps): a log names `postgres/src/connection.js` as a run from the source does, which the tests
 * that tell a worker's death by its stack read (tests/attack/knownIssues.ts).
 */
export function workerProgram(entry: keyof typeof WORKER_ENTRIES): string[] {
  const dir = process.env[RELEASE_WORKER_DIR_ENV]
  return dir ? ['--enable-source-maps', path.join(dir, `${entry}.mjs`)] : ['--import', 'tsx', WORKER_ENTRIES[entry]]
}

/**
 * Spawns the worker (workerProgram: the run's bundle of worker/runtime/main.ts, or the source) as its own process, as
 * production runs it; the test can SIGTERM or SIGKILL it. Output is kept in memory (parsed JSON lines) and in a log
 * file under the OS temp dir, whose path failing tests print.
 */
export function startWorkerProcess({ name, env }: { name: string; env: Record<string, string> }): WorkerProcess {
  mkdirSync(LOG_DIR, { recursive: true })
  const logFile = path.join(LOG_DIR, `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`)
  const out = createWriteStream(logFile)
  // node itself, never tsx's CLI: the CLI runs the script in a second process, so a
  // SIGKILL (by a failpoint or a test) would hit one process and the test watch the other
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'development' ? env.NODE_ENV : 'test'
  const child = spawn(process.execPath, workerProgram('worker'), {
    cwd: ROOT,
    env: { ...env, NODE_ENV: nodeEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (!child.pid) throw new Error(`worker ${name} did not start`)
  const lines: LogLine[] = []
  const waiters = new Set<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>()
  let buffer = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    out.write(chunk)
    buffer += chunk.toString('utf8')
    let nl = buffer.indexOf('\n')
    while (nl >= 0) {
      const text = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      nl = buffer.indexOf('\n')
      if (!text.startsWith('{')) continue
      try {
        const line = JSON.parse(text) as LogLine // the worker's pino lines are JSON objects
        lines.push(line)
        for (const w of waiters) if (w.match(line)) w.resolve(line)
      } catch {
        // not JSON: kept in the file only
      }
    }
  })
  child.stderr?.on('data', (chunk: Buffer) => out.write(chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // 'exit' can come before the last output is read: wait for the pipes to close (a
    // failpoint's last log line is written just before its SIGKILL), at most 2 s
    child.once('exit', (code, signal) => {
      let done = false
      const finish = () => {
        if (done) return
        done = true
        clearTimeout(timer)
        out.end()
        resolve({ code, signal })
      }
      const timer = setTimeout(finish, 2_000)
      child.once('close', finish)
    })
  })

  const waitForLine = (match: (line: LogLine) => boolean, timeoutMs = 30_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const found = lines.find(match)
      if (found) return resolve(found)
      const waiter = {
        match,
        resolve: (l: LogLine) => {
          clearTimeout(timer)
          waiters.delete(waiter)
          resolve(l)
        },
      }
      const timer = setTimeout(() => {
        waiters.delete(waiter)
        reject(new Error(`worker ${name}: no matching log line within ${timeoutMs} ms (log: ${logFile})`))
      }, timeoutMs)
      waiters.add(waiter)
      void exited.then(({ code, signal }) => {
        if (!waiters.has(waiter)) return
        waiters.delete(waiter)
        clearTimeout(timer)
        reject(
          new Error(`worker ${name} exited (code ${code}, signal ${signal}) before the log line (log: ${logFile})`),
        )
      })
    })

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    return exited
  }
  return { name, child, pid: child.pid, lines, exited, waitForLine, stop, logFile }
}
