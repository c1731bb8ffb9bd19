import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, constants as fsConstants, mkdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { sleep } from '@/lib/time/sleep'
import { AnvilStartError } from '../errors/stack'

/**
 * The local chain: the real anvil binary from npm (@foundry-rs/anvil's per-platform
 * package), on 127.0.0.1. With a state file the chain is dumped every second and on a
 * clean exit (SIGTERM) and loaded again at the next start, so it survives restarts;
 * a SIGKILL loses at most the last second.
 *
 * Without a port, anvil is started with `--port 0` and its "Listening on" line names the
 * port it bound: no window in which another process takes a port we picked. Anvil never
 * outlives us: stop() ends it, a process 'exit' hook ends it, and on Linux the kernel
 * ends it when we die by SIGKILL (setpriv --pdeathsig).
 */

/** anvil's first dev account (mnemonic "test test ... junk"): a well-known key, dev only */
export const ANVIL_DEV_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const
export const ANVIL_DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const
export const ANVIL_DEFAULT_CHAIN_ID = 31337

export type StartAnvilParameters = {
  /** load the chain from this file if it exists and keep dumping it there */
  stateFile?: string
  /** 0 or absent: a free port, chosen by anvil itself */
  port?: number
  /** seconds between blocks; without it every transaction is mined at once (automine) */
  blockTime?: number
  chainId?: number
  extraArgs?: string[]
  /**
   * 'silent' (default) keeps anvil's output to itself (shown only if it
   * fails to start); 'pipe' forwards it to stderr with an [anvil] prefix
   */
  logs?: 'silent' | 'pipe'
  /** how long to wait for eth_chainId to answer */
  startTimeoutMs?: number
  /**
   * run anvil in its own process group, so a Ctrl-C in the terminal reaches only the
   * parent, which then stops anvil in order (the local stack). It still dies with its
   * parent (see withParentDeathSignal).
   */
  detached?: boolean
}

export type StartAnvilReturnType = {
  rpcUrl: string
  port: number
  process: ChildProcess
  /** SIGTERM (anvil dumps its state), SIGKILL after 5 s; resolves once anvil has exited */
  stop(): Promise<void>
}

const STOP_GRACE_MS = 5_000
const live = new Set<ChildProcess>()
let exitHookInstalled = false

export async function startAnvil({
  stateFile,
  port = 0,
  blockTime,
  chainId = ANVIL_DEFAULT_CHAIN_ID,
  extraArgs = [],
  logs = 'silent',
  startTimeoutMs = 15_000,
  detached = false,
}: StartAnvilParameters = {}): Promise<StartAnvilReturnType> {
  // port 0: anvil binds a free port itself and names it in its "Listening on" line, so
  // no other process can take the port between our choosing it and anvil binding it
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)]
  if (stateFile) {
    // anvil does not create the folder: without it nothing is ever dumped and the chain
    // silently starts from block 0 again at the next start
    mkdirSync(path.dirname(stateFile), { recursive: true })
    args.push('--state', stateFile, '--state-interval', '1')
  }
  // 0 (or none) means automine: every transaction is mined at once
  if (blockTime) args.push('--block-time', String(blockTime))
  args.push(...extraArgs)

  const { command, commandArgs } = withParentDeathSignal(anvilBinary(), args)
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], detached })
  track(child)

  // anvil logs every request: keep the last lines for error messages, forward on 'pipe'
  const tail: string[] = []
  let partial = ''
  let listening: ((port: number) => void) | undefined
  const listeningPort = new Promise<number>((resolve) => {
    listening = resolve
  })
  const onOutput = (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8')
    const lines = text.split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) {
      if (!line.trim()) continue
      tail.push(line)
      const m = /^Listening on 127\.0\.0\.1:(\d+)/.exec(line.trim())
      if (m) listening?.(Number(m[1]))
      if (logs === 'pipe') process.stderr.write(`[anvil] ${line}\n`)
    }
    if (tail.length > 40) tail.splice(0, tail.length - 40)
  }
  child.stdout?.on('data', onOutput)
  child.stderr?.on('data', onOutput)

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  void exited.then(() => live.delete(child))

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        // anvil's dump on SIGTERM is not always written (seen on a loaded machine): wait for its next
        // interval dump, which holds everything before this stop, then stop it
        if (stateFile) await waitForDumpAfter({ stateFile, since: Date.now(), timeoutMs: 2_500 })
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
        await exited
        clearTimeout(timer)
      }
      live.delete(child)
    })()
    return stopping
  }

  try {
    const actualPort = await waitForListening({ listeningPort, exited, child, timeoutMs: startTimeoutMs })
    const rpcUrl = `http://127.0.0.1:${actualPort}`
    await waitForRpc({ rpcUrl, exited, child, timeoutMs: startTimeoutMs })
    return { rpcUrl, port: actualPort, process: child, stop }
  } catch (err) {
    await stop()
    const output = tail.length ? `\n${tail.join('\n')}` : ''
    throw new AnvilStartError(
      `anvil did not start${port ? ` on port ${port}` : ''}: ${err instanceof Error ? err.message : String(err)}${output}`,
      { cause: err },
    )
  }
}

async function waitForListening({
  listeningPort,
  exited,
  child,
  timeoutMs,
}: {
  listeningPort: Promise<number>
  exited: Promise<void>
  child: ChildProcess
  timeoutMs: number
}): Promise<number> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      listeningPort,
      exited.then(() => {
        throw new Error(`anvil exited (code ${child.exitCode}, signal ${child.signalCode})`)
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no "Listening on" line within ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

async function waitForRpc({
  rpcUrl,
  child,
  exited,
  timeoutMs,
}: {
  rpcUrl: string
  child: ChildProcess
  exited: Promise<void>
  timeoutMs: number
}): Promise<void> {
  let gone = false
  void exited.then(() => {
    gone = true
  })
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (gone) throw new Error(`anvil exited (code ${child.exitCode}, signal ${child.signalCode})`)
    try {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(1_000),
      })
      if (res.ok) {
        // a JSON-RPC answer; only its presence matters
        const body = (await res.json()) as { result?: string }
        if (typeof body.result === 'string') return
      }
    } catch {
      // not listening yet
    }
    await sleep({ ms: 25 })
  }
  throw new Error(`eth_chainId did not answer within ${timeoutMs} ms`)
}

/** The native anvil binary (ANVIL_BIN overrides), not the npm bin wrapper: signals must reach anvil itself. */
export function anvilBinary(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`))
    return path.join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  } catch (err) {
    throw new AnvilStartError(
      `${pkg} is not installed (run npm install; it is an optional dependency of @foundry-rs/anvil)`,
      {
        cause: err,
      },
    )
  }
}

/**
 * On Linux, run anvil under `setpriv --pdeathsig SIGTERM` (util-linux; setpriv execs
 * anvil, so the pid is anvil's): the kernel stops anvil if this process dies, even by
 * SIGKILL, when no 'exit' handler can run. Elsewhere anvil is spawned directly.
 */
function withParentDeathSignal(binary: string, args: string[]): { command: string; commandArgs: string[] } {
  if (process.platform === 'linux' && setprivPath)
    return { command: setprivPath, commandArgs: ['--pdeathsig', 'TERM', '--', binary, ...args] }
  return { command: binary, commandArgs: args }
}

const setprivPath = (() => {
  for (const p of ['/usr/bin/setpriv', '/bin/setpriv']) {
    try {
      accessSync(p, fsConstants.X_OK)
      return p
    } catch {
      // not there
    }
  }
  return undefined
})()

function track(child: ChildProcess): void {
  live.add(child)
  if (exitHookInstalled) return
  exitHookInstalled = true
  // last resort when the owner never called stop(): 'exit' handlers must be synchronous
  process.on('exit', () => {
    for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
  })
}

/** Resolves once the state file was written after `since` (anvil's --state-interval dump), or after timeoutMs. */
async function waitForDumpAfter(p: { stateFile: string; since: number; timeoutMs: number }): Promise<void> {
  const deadline = Date.now() + p.timeoutMs
  while (Date.now() < deadline) {
    try {
      if (statSync(p.stateFile).mtimeMs > p.since) return
    } catch {
      // not dumped yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}
