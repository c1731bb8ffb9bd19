import type { BenchResult } from '../BenchResult'
import type { ProcessMemoryStats } from '../profile/summarizeCpuProfile'
import type { TargetResult } from './evaluateTargets'
import { mb, num } from './format'

export const WORKER_RSS_TARGET_MB = 150
export const WEB_RSS_TARGET_MB = 300

/** Section 4's targets: the worker's and the web's peak resident set, as shipped. */
export function memoryTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  const memTarget = (group: 'worker' | 'web', limitMb: number, shipped: string) => {
    const m = r.memory[group]
    if (!m) return
    const peakMb = m.peakProcessKb / 1024
    const pass = peakMb < limitMb
    targets.push({
      name: `${group === 'web' ? 'Web' : 'Worker'} peak RSS < ${limitMb} MB, as shipped (${shipped})`,
      measured: `${mb(m.peakProcessKb)} (VmHWM of the largest process)`,
      pass,
      note: pass
        ? undefined
        : {
            bound: memoryBound(group, m.peakProcessKb, r.profiles[group]?.memory),
            evidence: [
              ...m.processes.map(
                (x) => `pid ${x.pid}: VmHWM ${mb(x.hwmKb)}, VmRSS at the end ${mb(x.rssKb)}: ${x.cmd.slice(0, 160)}`,
              ),
              ...heapLines(group, r.profiles[group]?.memory),
            ],
          },
    })
  }
  memTarget('worker', WORKER_RSS_TARGET_MB, `${r.release.workerEnv ? `${r.release.workerEnv} ` : ''}node worker.mjs`)
  memTarget('web', WEB_RSS_TARGET_MB, `${r.release.webEnv ? `${r.release.webEnv} ` : ''}node server.js`)
  return targets
}

function memoryBound(group: string, peakKb: number, m: ProcessMemoryStats | undefined): string {
  const head = `the ${group} process itself, whose resident set peaked at ${mb(peakKb)} (VmHWM)`
  if (!m) return `${head}.`
  const outside = m.rss - m.heapTotal - m.external
  return (
    `${head}. After its profiled batch its RSS was ${num(m.rss, 0)} MB: V8's heap ${num(m.heapTotal, 0)} MB reserved (${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB still live after a full collection), ` +
    `${num(outside, 0)} MB outside V8's heap (the Node.js binary, native libraries, compiled code), ${num(m.external, 0)} MB of external buffers.`
  )
}

function heapLines(group: string, m: ProcessMemoryStats | undefined): string[] {
  if (!m) return []
  return [
    `Inside the ${group} process (process.memoryUsage() right after its profiled run, then after a forced full GC): RSS ${num(m.rss, 0)} MB; heap ${num(m.heapTotal, 0)} MB reserved, ${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB live. Heap spaces after the GC (reserved / used MB): ${m.spaces.map((sp) => `${sp.name} ${num(sp.size, 0)} / ${num(sp.used, 0)}`).join(', ')}.`,
  ]
}
