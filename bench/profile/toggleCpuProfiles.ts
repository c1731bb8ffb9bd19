import { readFileSync, realpathSync } from 'node:fs'
import { processTree } from '../system/proc'

/**
 * Sends SIGUSR2 to every process of the given trees that carries the profile preload
 * (a node process with MINTDESK_BENCH_PROFILE_DIR in its environment): the first signal
 * starts its CPU profiler, the next writes the profile (cpuProfilePreload.cjs). Other
 * processes are never signalled (SIGUSR2 would end them). Returns the pids signalled.
 */
export function toggleCpuProfiles({ roots }: { roots: readonly number[] }): number[] {
  const node = realpathSync(process.execPath)
  const signalled: number[] = []
  for (const root of roots) {
    for (const pid of processTree(root)) {
      if (!isProfiled(pid, node)) continue
      try {
        process.kill(pid, 'SIGUSR2')
        signalled.push(pid)
      } catch {
        // gone meanwhile
      }
    }
  }
  return signalled
}

function isProfiled(pid: number, node: string): boolean {
  try {
    if (realpathSync(`/proc/${pid}/exe`) !== node) return false
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .some((v) => v.startsWith('MINTDESK_BENCH_PROFILE_DIR='))
  } catch {
    return false
  }
}
