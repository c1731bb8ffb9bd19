import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import type { BenchStack } from '../stack/startBenchStack'
import { sleep } from '../system/clock'
import { type CpuProfileSummary, summarizeCpuProfile } from './summarizeCpuProfile'
import { toggleCpuProfiles } from './toggleCpuProfiles'

export type WithProfileParameters = {
  stack: Pick<BenchStack, 'profileDirs'>
  root: string
  who: 'web' | 'worker'
  /** the processes to profile (their node children too) */
  roots: number[]
}

/** Profiles `roots` (and their node children) while `work` runs; the busiest process's profile, summarised. */
export async function withProfile(
  { stack, root, who, roots }: WithProfileParameters,
  work: () => Promise<unknown>,
): Promise<CpuProfileSummary | undefined> {
  const since = Date.now()
  const dir = stack.profileDirs[who]
  const pids = toggleCpuProfiles({ roots })
  await sleep(300)
  await work()
  toggleCpuProfiles({ roots })
  for (let i = 0; i < 50 && countProfiles(dir, since) < pids.length; i++) await sleep(200)
  return summarizeCpuProfile({ dir, since, root })
}

function countProfiles(dir: string, since: number): number {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && statSync(path.join(dir, f)).mtimeMs >= since)
      .length
  } catch {
    return 0
  }
}
