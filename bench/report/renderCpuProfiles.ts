import type { CpuProfileSummary } from '../profile/summarizeCpuProfile'
import type { RenderSectionParameters } from '../runs/BenchRun'
import { num } from './format'

/** The CPU profiles (after the notes on missed targets): the web under the intake, the worker under a batch. */
export function renderCpuProfiles({ result: r, line }: RenderSectionParameters): void {
  line('## CPU profiles')
  line()
  line(
    "Taken in extra runs outside the tables (V8's sampling profiler, 1 ms, toggled by SIGUSR2 through `bench/profile/cpuProfilePreload.cjs`): the web under the intake, the worker under a batch with every signer active. Self time is charged to the package that asked for it (frames of a bundle are mapped to their sources through its source map).",
  )
  line()
  profileSection(line, 'Web', r.profiles.web)
  profileSection(line, 'Worker', r.profiles.worker)
}

function profileSection(line: (s?: string) => void, label: string, p: CpuProfileSummary | undefined) {
  if (!p) {
    line(`${label}: no profile in this run.`)
    line()
    return
  }
  line(
    `**${label}** (${num(p.seconds, 0)} s, ${p.samples} samples, ${num(p.busyPercent, 0)}% busy). Busy time by area: ${p.byArea.map((a) => `${a.name} ${num(a.percent, 1)}%`).join(', ')}.`,
  )
  line()
  line(`Top functions by self time: ${p.topFunctions.map((f) => `\`${f.name}\` ${num(f.percent, 1)}%`).join(', ')}.`)
  line()
}
