import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * Runs a process of the release build (tests/release/standalone.int.test.ts) the way a
 * container would: a clean environment (only what is given, plus PATH), its own working
 * directory and, when this process is root and `unshare` exists, its own mount namespace
 * in which the repository is hidden under an empty tmpfs, so the copy cannot reach a file
 * of the checkout (source, node_modules, migrations) by an absolute path it remembered.
 */

export type ReleaseProcess = {
  name: string
  child: ChildProcess
  /** stdout and stderr so far, interleaved */
  output: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** sends `signal`, SIGKILL after `graceMs`; resolves with how it ended */
  stop: (
    signal?: NodeJS.Signals,
    graceMs?: number,
  ) => Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>
}

export type StartReleaseProcessParameters = {
  name: string
  cwd: string
  args: string[]
  env: Record<string, string>
  /** a folder to hide (the repository) */
  hide?: string
  /** written to stdin, which is then closed */
  stdin?: string
}

let isolationProbe: boolean | undefined

/** Whether `unshare --mount` can hide a folder here (root, util-linux). */
export function canIsolate(): boolean {
  if (isolationProbe === undefined) {
    isolationProbe =
      process.platform === 'linux' &&
      process.getuid?.() === 0 &&
      existsSync('/usr/bin/unshare') &&
      spawnSync(
        '/usr/bin/unshare',
        ['--mount', '--propagation', 'private', '--', 'sh', '-c', 'mount -t tmpfs tmpfs /mnt && true'],
        {
          stdio: 'ignore',
          timeout: 10_000,
        },
      ).status === 0
  }
  return isolationProbe
}

export function startReleaseProcess({
  name,
  cwd,
  args,
  env,
  hide,
  stdin,
}: StartReleaseProcessParameters): ReleaseProcess {
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }
  let command = process.execPath
  let commandArgs = args
  if (hide && canIsolate()) {
    // unshare execs sh, sh mounts the tmpfs and execs node: the pid stays node's
    command = '/usr/bin/unshare'
    commandArgs = [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      'mount -t tmpfs tmpfs "$0" && exec "$@"',
      hide,
      nodeOutside(hide),
      ...args,
    ]
  }
  // NODE_ENV comes from the image's ENV like the rest; Next's types merely require the key
  const child = spawn(command, commandArgs, {
    cwd,
    env: fullEnv as NodeJS.ProcessEnv,
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  })
  if (stdin !== undefined) child.stdin?.end(stdin)
  let out = ''
  const collect = (chunk: Buffer) => {
    out += chunk.toString('utf8')
    if (out.length > 2_000_000) out = out.slice(-1_000_000)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  live.add(child)
  void exited.then(() => live.delete(child))
  const stop: ReleaseProcess['stop'] = async (signal = 'SIGTERM', graceMs = 35_000) => {
    const started = Date.now()
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      const r = await exited
      clearTimeout(timer)
      return { ...r, ms: Date.now() - started }
    }
    return { ...(await exited), ms: 0 }
  }
  return { name, child, output: () => out, exited, stop }
}

const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

/** Runs a release process to its end (e.g. the migrate bundle); SIGKILL after timeoutMs. */
export async function runReleaseProcess(
  p: StartReleaseProcessParameters & { timeoutMs?: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; ms: number }> {
  const started = Date.now()
  const proc = startReleaseProcess(p)
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), p.timeoutMs ?? 60_000)
  const r = await proc.exited
  clearTimeout(timer)
  return { ...r, output: proc.output(), ms: Date.now() - started }
}

/**
 * This Node's binary, from a path the hidden folder does not cover: the image's Node
 * runner of `npm test` (scripts/test.ts) runs a Node from node_modules, which the
 * tmpfs over the repository would hide. A copy per version, made once.
 */
function nodeOutside(hide: string): string {
  const inside = path.relative(hide, process.execPath)
  if (inside.startsWith('..') || path.isAbsolute(inside)) return process.execPath
  const dir = path.join(tmpdir(), `mintdesk-node-${process.version}`)
  const copy = path.join(dir, 'node')
  if (!existsSync(copy)) {
    mkdirSync(dir, { recursive: true })
    const partial = `${copy}.${process.pid}`
    copyFileSync(process.execPath, partial)
    spawnSync('chmod', ['755', partial])
    spawnSync('mv', ['-f', partial, copy])
  }
  return copy
}
