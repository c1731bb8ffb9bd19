import { readdirSync, readFileSync } from 'node:fs'

/**
 * Reading /proc (Linux): the process table, CPU ticks and resident memory of process
 * trees. The bench measures its children (web, worker, Postgres, anvil, KMS endpoint)
 * from the outside, so nothing in the measured processes changes.
 */

export type ProcInfo = {
  pid: number
  ppid: number
  comm: string
  /** user + system ticks of the process itself */
  ticks: number
  /** user + system ticks of its reaped children */
  childTicks: number
}

export const CLOCK_TICKS_PER_SECOND = 100

export function readProcessTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const info = readProcStat(Number(name))
    if (info) table.set(info.pid, info)
  }
  return table
}

/** The process's main thread only (its thread id is the pid): `ticks` are that thread's. */
export function readMainThreadStat(pid: number): ProcInfo | undefined {
  return readProcStat(pid, `/proc/${pid}/task/${pid}/stat`)
}

export function readProcStat(pid: number, file = `/proc/${pid}/stat`): ProcInfo | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  // "pid (comm) state ppid ..." where comm may contain spaces and parentheses
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  const comm = text.slice(open + 1, close)
  const fields = text.slice(close + 2).split(' ')
  // fields[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17
  const n = (field: number) => Number(fields[field - 3])
  return { pid, ppid: n(4), comm, ticks: n(14) + n(15), childTicks: n(16) + n(17) }
}

/** The pid and every live descendant. */
export function processTree(root: number, table: Map<number, ProcInfo> = readProcessTable()): number[] {
  if (!table.has(root)) return []
  const children = new Map<number, number[]>()
  for (const p of table.values()) {
    const list = children.get(p.ppid) ?? []
    list.push(p.pid)
    children.set(p.ppid, list)
  }
  const out: number[] = []
  const stack = [root]
  while (stack.length > 0) {
    const pid = stack.pop() as number
    out.push(pid)
    stack.push(...(children.get(pid) ?? []))
  }
  return out
}

export type ProcMemory = { pid: number; rssKb: number; hwmKb: number; cmd: string }

/** VmRSS (now) and VmHWM (the peak resident set since the process started), in kB. */
export function readProcMemory(pid: number): ProcMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0)
    return { pid, rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), cmd: readCmdline(pid) }
  } catch {
    return undefined
  }
}

/**
 * Proportional set size in kB (/proc/<pid>/smaps_rollup): shared pages divided among the
 * processes sharing them, so a sum over processes (Postgres backends sharing their
 * buffers) does not count shared memory once per process as a sum of RSS would.
 */
export function readProcPssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

export function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return ''
  }
}

/** Busy and total jiffies of the whole machine (/proc/stat), for the load others put on it. */
export function readMachineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
  const values = line.trim().split(/\s+/).slice(1).map(Number)
  const total = values.reduce((a, b) => a + b, 0)
  // idle + iowait
  const idle = (values[3] ?? 0) + (values[4] ?? 0)
  return { busy: total - idle, total }
}
