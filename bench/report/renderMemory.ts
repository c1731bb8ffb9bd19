import type { ProcessMemoryStats } from '../profile/summarizeCpuProfile'
import type { RenderSectionParameters } from '../runs/BenchRun'
import { mb, num } from './format'
import { WEB_RSS_TARGET_MB, WORKER_RSS_TARGET_MB } from './memoryTargets'

/** Section 4: each group's peak memory over the runs before the bar-list import, and inside the profiled processes. */
export function renderMemory({ result: r, line, table }: RenderSectionParameters): void {
  line('## 4. Memory, as shipped')
  line()
  line(
    "Peak resident set over every run above (the bar-list import of section 5 excepted: its peak is its own row): VmHWM, the kernel's high-water mark, of the largest process of each group, and the group's processes together as proportional set size (shared pages split between the processes sharing them), sampled every 500 ms. Every worker process of the run counts (one per drain; the profiled one until its profile began: the profiler's samples are its memory too, and no image runs it), and every web process (section 7 restarts the web twice: once with tracing on, once without).",
  )
  line()
  const limits: Record<string, string> = { web: `< ${WEB_RSS_TARGET_MB} MB`, worker: `< ${WORKER_RSS_TARGET_MB} MB` }
  table(
    ['process', 'peak RSS (VmHWM)', 'group peak (PSS, sampled)', 'target'],
    Object.entries(r.memory)
      .filter(([name]) => name !== 'bench')
      .map(([name, m]) => [name, mb(m.peakProcessKb), mb(m.peakTreeKb), limits[name] ?? '-']),
  )
  memoryLine(line, 'worker', r.profiles.worker?.memory)
  memoryLine(line, 'web', r.profiles.web?.memory)
}

function memoryLine(line: (s?: string) => void, who: string, m: ProcessMemoryStats | undefined): void {
  if (!m) return
  line(
    `Inside the ${who} after its profiled run (process.memoryUsage(), then a forced full GC): RSS ${num(m.rss, 0)} MB = V8 heap ${num(m.heapTotal, 0)} MB reserved (${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB live) + ${num(m.external, 0)} MB external buffers + ${num(m.rss - m.heapTotal - m.external, 0)} MB outside V8's heap (the Node.js binary, native libraries, compiled code). Heap spaces after the GC (reserved / used MB): ${m.spaces.map((sp) => `${sp.name} ${num(sp.size, 0)} / ${num(sp.used, 0)}`).join(', ')}.`,
  )
  line()
}
