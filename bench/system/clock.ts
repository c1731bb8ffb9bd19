/**
 * Wall-clock milliseconds with sub-millisecond resolution, comparable with Postgres
 * timestamps (now(), commit timestamps) taken on the same machine: both read the
 * system's realtime clock.
 */
export function nowMs(): number {
  return performance.timeOrigin + performance.now()
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
