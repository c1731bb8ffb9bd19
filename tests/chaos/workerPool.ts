import { startWorkerProcess, type WorkerProcess } from '@/tests/helpers/workerProcess'

/**
 * The worker processes of a chaos run: started with the same environment, killed
 * (SIGKILL: a crash, an OOM, a lost host) or stopped (SIGTERM: a deploy), replaced.
 * Built on the worker engineer's `startWorkerProcess` (one `node --import tsx` process
 * per worker, so a signal reaches the worker itself).
 */
export type WorkerPool = {
  /** starts one more worker; resolves once it logged 'worker started' */
  start: () => Promise<WorkerProcess>
  /** processes that have not exited */
  live: () => WorkerProcess[]
  /** graphile-worker pool ids of the live, started workers */
  liveIds: () => Set<string>
  /** live workers that logged 'worker started' */
  started: () => WorkerProcess[]
  /** the pool id a worker logged at start */
  idOf: (w: WorkerProcess) => string | undefined
  /** sends a signal to one worker and waits for its exit (a signal we sent is not a crash) */
  signal: (w: WorkerProcess, signal: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /**
   * SIGKILL one live, started worker at random (one that may hold jobs), but only while at
   * least `spare + 1` are running, so some worker always makes progress (none: undefined)
   */
  killRandom: (rng: () => number, spare?: number) => Promise<WorkerProcess | undefined>
  /** started workers that exited without a signal from us (crashed, fenced themselves); not those that never started */
  crashes: () => { name: string; code: number | null; signal: NodeJS.Signals | null; logFile: string }[]
  /** workers that exited before they logged 'worker started' (e.g. started while Postgres was down) */
  startFailures: () => number
  /** SIGTERM every live worker; resolves with their exits */
  stopAll: () => Promise<{ name: string; code: number | null; signal: NodeJS.Signals | null; ms: number }[]>
  all: WorkerProcess[]
  stats: { started: number; sigkills: number; sigterms: number }
}

export type CreateWorkerPoolParameters = { env: Record<string, string>; prefix: string }

export function createWorkerPool({ env, prefix }: CreateWorkerPoolParameters): WorkerPool {
  const all: WorkerProcess[] = []
  const stats = { started: 0, sigkills: 0, sigterms: 0 }
  const idOf = (w: WorkerProcess) => {
    const line = w.lines.find((l) => l.msg === 'worker started')
    return line ? String(line.workerId) : undefined
  }
  const isLive = (w: WorkerProcess) => w.child.exitCode === null && w.child.signalCode === null
  const live = () => all.filter(isLive)
  const signalled = new Set<WorkerProcess>()
  const signal = async (w: WorkerProcess, sig: NodeJS.Signals) => {
    signalled.add(w)
    if (sig === 'SIGKILL') stats.sigkills++
    else stats.sigterms++
    return w.stop(sig)
  }

  const start = async () => {
    const w = startWorkerProcess({ name: `${prefix}-${++stats.started}`, env })
    all.push(w)
    await w.waitForLine((l) => l.msg === 'worker started', 60_000)
    return w
  }

  return {
    start,
    live,
    liveIds: () => new Set(live().flatMap((w) => idOf(w) ?? [])),
    started: () => live().filter((w) => idOf(w) !== undefined),
    idOf,
    signal,
    killRandom: async (rng, spare = 0) => {
      const candidates = live().filter((w) => idOf(w) !== undefined)
      if (candidates.length <= spare) return undefined
      const victim = candidates[Math.floor(rng() * candidates.length)]
      await signal(victim, 'SIGKILL')
      return victim
    },
    crashes: () =>
      all
        .filter((w) => !isLive(w) && !signalled.has(w) && idOf(w) !== undefined)
        .map((w) => ({ name: w.name, code: w.child.exitCode, signal: w.child.signalCode, logFile: w.logFile })),
    startFailures: () => all.filter((w) => !isLive(w) && !signalled.has(w) && idOf(w) === undefined).length,
    stopAll: async () =>
      Promise.all(
        live().map(async (w) => {
          const t0 = Date.now()
          const exit = await signal(w, 'SIGTERM')
          return { name: w.name, ...exit, ms: Date.now() - t0 }
        }),
      ),
    all,
    stats,
  }
}

export type Killer = { stop: () => Promise<void>; kills: () => number }

export type StartKillerParameters = {
  pool: WorkerPool
  /** a kill every min..max ms */
  everyMs: [number, number]
  rng: () => number
  /** keep this many workers: a killed worker is replaced at once (0: a supervisor does it) */
  keep: number
  /** never kill the last `spare` running workers (default 0) */
  spare?: number
  log?: (line: string) => void
}

/** SIGKILLs a random worker every few seconds and starts a new one, until stopped. */
export function startKiller({ pool, everyMs, rng, keep, spare = 0, log = () => {} }: StartKillerParameters): Killer {
  let stopped = false
  let kills = 0
  let wake: (() => void) | undefined
  const loop = (async () => {
    while (!stopped) {
      const wait = everyMs[0] + Math.floor(rng() * (everyMs[1] - everyMs[0]))
      await new Promise<void>((r) => {
        const t = setTimeout(r, wait)
        wake = () => {
          clearTimeout(t)
          r()
        }
      })
      if (stopped) break
      const victim = await pool.killRandom(rng, spare)
      if (victim) {
        kills++
        log(`SIGKILL ${victim.name} (${pool.idOf(victim) ?? 'not started yet'})`)
      }
      const missing = keep - pool.live().length
      await Promise.all(
        Array.from({ length: Math.max(0, missing) }, () =>
          pool.start().catch((e: unknown) => log(`a replacement worker failed to start: ${String(e)}`)),
        ),
      )
    }
  })()
  return {
    stop: async () => {
      stopped = true
      wake?.()
      await loop
    },
    kills: () => kills,
  }
}

/** Like ECS: keeps `keep` workers running, replacing any that exited (crashed, fenced) within a second. */
export function startSupervisor({
  pool,
  keep,
  log = () => {},
}: {
  pool: WorkerPool
  keep: number
  log?: (line: string) => void
}): { stop: () => Promise<void> } {
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const missing = keep - pool.live().length
      if (missing > 0) {
        log(`supervisor: ${missing} worker(s) missing, starting`)
        await Promise.all(
          Array.from({ length: missing }, () =>
            pool.start().catch((e: unknown) => log(`a worker failed to start: ${String(e)}`)),
          ),
        )
      }
      await new Promise((r) => setTimeout(r, 1_000))
    }
  })()
  return {
    stop: async () => {
      stopped = true
      await loop
    },
  }
}
