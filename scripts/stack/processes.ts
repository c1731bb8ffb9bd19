import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { sleep } from '@/lib/time/sleep'

/**
 * Children of the local stack run in their own process groups (so a terminal's Ctrl-C
 * reaches only the parent, which stops them in order). Their pids are written down, so
 * a parent killed with SIGKILL leaves nothing behind for long: the next start stops
 * what the last one left.
 */
export type Tracked = { name: string; pid: number; cmd: string }

export function readPidFile(file: string): Tracked[] {
  if (!existsSync(file)) return []
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Tracked[]
  } catch {
    return []
  }
}

export function writePidFile(file: string, tracked: Tracked[]): void {
  writeFileSync(file, JSON.stringify(tracked, null, 2))
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

/** Stops processes a killed earlier run left behind (only if they still look like ours). */
export async function stopLeftovers(file: string, log: (l: string) => void): Promise<void> {
  for (const t of readPidFile(file).reverse()) {
    if (!isAlive(t.pid) || !cmdline(t.pid).includes(t.cmd)) continue
    log(`stopping ${t.name} (pid ${t.pid}) left by an earlier run`)
    await stopPid(t.pid, 'SIGTERM', 10_000)
  }
  writePidFile(file, [])
}

export async function stopPid(pid: number, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  try {
    process.kill(-pid, signal) // the whole group
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      return
    }
  }
  const deadline = Date.now() + graceMs
  while (isAlive(pid) && Date.now() < deadline) await sleep({ ms: 100 })
  if (isAlive(pid)) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {}
    }
  }
}

export type ManagedChild = { name: string; child: ChildProcess; stop: (graceMs?: number) => Promise<void> }

export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { signal?: NodeJS.Signals },
): ManagedChild {
  const child = spawn(command, args, { ...options, detached: true })
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve()
    child.once('exit', () => resolve())
  })
  let stopping: Promise<void> | undefined
  const stop = (graceMs = 30_000) => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
      await stopPid(child.pid, options.signal ?? 'SIGTERM', graceMs)
      await exited
    })()
    return stopping
  }
  return { name, child, stop }
}
