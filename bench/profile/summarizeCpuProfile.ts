import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { SourceMap } from 'node:module'
import path from 'node:path'

/** The Chrome DevTools .cpuprofile format, as V8's profiler writes it. */
type CpuProfile = {
  nodes: Array<{
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
    children?: number[]
  }>
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

type CallFrame = CpuProfile['nodes'][number]['callFrame']

export type ProfileShare = { name: string; percent: number }

/**
 * process.memoryUsage() of the profiled process when its profile was written, in MB, and
 * what was left of the heap after a full garbage collection (the live set)
 */
export type ProcessMemoryStats = {
  rss: number
  heapTotal: number
  heapUsed: number
  external: number
  arrayBuffers: number
  liveHeap: number
  /** V8 heap spaces after that collection: reserved / used MB */
  spaces: Array<{ name: string; size: number; used: number }>
}

export type CpuProfileSummary = {
  file: string
  seconds: number
  samples: number
  /** share of samples in which the process was not idle */
  busyPercent: number
  /**
   * busy samples by the package or folder responsible: native and node:* frames are
   * charged to the nearest caller above them that is not Node.js itself (percent of busy)
   */
  byArea: ProfileShare[]
  /**
   * functions by self time (percent of busy samples); a native one names its Node.js caller and the area it worked for
   */
  topFunctions: ProfileShare[]
  memory?: ProcessMemoryStats
}

/**
 * The busiest profile in `dir` (written after `since`), reduced to self time by area
 * (npm package, mintdesk folder, the Next.js bundle, GC, ...) and by function.
 */
export function summarizeCpuProfile({
  dir,
  since,
  root,
}: {
  dir: string
  since: number
  root: string
}): CpuProfileSummary | undefined {
  let files: string[]
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(dir, f))
  } catch {
    return undefined
  }
  const summaries = files.filter((f) => statSync(f).mtimeMs >= since).map((f) => summarize(f, root))
  return summaries.sort((a, b) => b.samples * b.busyPercent - a.samples * a.busyPercent)[0]
}

function summarize(file: string, root: string): CpuProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile // written by V8's profiler
  // a bundle's frames (worker.mjs as shipped) are charged to the sources its source map names
  const mapFrame = createFrameMapper(root)
  for (const n of profile.nodes) n.callFrame = mapFrame(n.callFrame)
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parentOf = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id)
  const areaCache = new Map<number, string>()
  const areaOfNode = (id: number): string => {
    const cached = areaCache.get(id)
    if (cached) return cached
    const frame = byId.get(id)?.callFrame
    let area = frame ? specialArea(frame) : undefined
    if (!area) {
      // walk up to the first frame that is neither native nor Node.js's own
      for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
        const f = byId.get(at)?.callFrame
        if (f?.url && !f.url.startsWith('node:')) {
          area = urlArea(f.url, root)
          break
        }
      }
    }
    area ??= 'Node.js internals (no package on the stack)'
    areaCache.set(id, area)
    return area
  }

  // the Node.js module a native function was called from (node:internal/crypto/util -> crypto/util)
  const nodeCaller = (id: number): string | undefined => {
    for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
      const url = byId.get(at)?.callFrame.url
      if (url?.startsWith('node:')) return url.replace(/^node:(internal\/)?/, '')
      if (url) return undefined
    }
    return undefined
  }
  const areaCounts = new Map<string, number>()
  const fnCounts = new Map<string, number>()
  let busy = 0
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame
    if (!frame || frame.functionName === '(idle)') continue
    busy++
    const area = areaOfNode(id)
    areaCounts.set(area, (areaCounts.get(area) ?? 0) + 1)
    const fn = frame.url
      ? `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url, root)}:${frame.lineNumber + 1}`
      : specialArea(frame)
        ? frame.functionName
        : `${frame.functionName || '(anonymous)'} (native, via ${nodeCaller(id) ?? '?'}, for ${area})`
    fnCounts.set(fn, (fnCounts.get(fn) ?? 0) + 1)
  }
  const shares = (counts: Map<string, number>, n: number) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, c]) => ({ name, percent: busy > 0 ? (c / busy) * 100 : 0 }))
  return {
    file,
    seconds: (profile.endTime - profile.startTime) / 1e6,
    samples: profile.samples.length,
    busyPercent: profile.samples.length > 0 ? (busy / profile.samples.length) * 100 : 0,
    byArea: shares(areaCounts, 10),
    topFunctions: shares(fnCounts, 12),
    memory: readMemoryStats(file.replace(/\.cpuprofile$/, '.memory.json')),
  }
}

/**
 * Maps a frame of an esbuild bundle with a `.map` beside it to its original source and
 * line (node:module's SourceMap), as a file under `root` (the map's `../` prefixes are
 * dropped: the bundle may run from a copy at another depth). Other frames are unchanged.
 */
function createFrameMapper(root: string): (frame: CallFrame) => CallFrame {
  const maps = new Map<string, SourceMap | null>()
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      const mapFile = `${file}.map`
      let map: SourceMap | null = null
      if (!file.includes('/node_modules/') && !file.includes('/.next/') && existsSync(mapFile)) {
        try {
          // esbuild's source map
          map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0])
        } catch {
          map = null
        }
      }
      maps.set(file, map)
    }
    return maps.get(file) ?? null
  }
  return (frame) => {
    if (!frame.url.startsWith('file://') || !/\.m?js$/.test(frame.url)) return frame
    const map = mapOf(frame.url.slice('file://'.length))
    if (!map) return frame
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as {
      originalSource?: string
      originalLine?: number
    }
    if (!entry.originalSource) return frame
    const source = entry.originalSource.replace(/^file:\/\//, '').replace(/^(\.\.\/)+/, '')
    return {
      ...frame,
      url: `file://${path.isAbsolute(source) ? source : path.join(root, source)}`,
      lineNumber: entry.originalLine ?? frame.lineNumber,
    }
  }
}

function specialArea(frame: CallFrame): string | undefined {
  if (frame.functionName === '(garbage collector)') return 'V8 garbage collector'
  if (frame.functionName === '(program)') return 'V8/native, not attributed (program)'
  return undefined
}

function urlArea(url: string, root: string): string {
  const file = url.replace(/^file:\/\//, '')
  const nm = file.lastIndexOf('/node_modules/')
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/')
    // drizzle-orm ships source maps to ../src/*.ts: composed by esbuild, they land in node_modules/src/
    if (parts[0] === 'src') return 'npm: drizzle-orm'
    return `npm: ${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`
  }
  if (file.includes('/.next/server/')) return 'app bundle (.next/server)'
  if (file.startsWith(root)) return `mintdesk: ${path.relative(root, file).split('/')[0]}/`
  return file
}

function shortUrl(url: string, root: string): string {
  const file = url.replace(/^file:\/\//, '')
  const nm = file.lastIndexOf('/node_modules/')
  if (nm >= 0) return file.slice(nm + '/node_modules/'.length)
  return file.startsWith(root) ? path.relative(root, file) : file
}

type MemoryFile = {
  memoryUsage: Record<'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers', number>
  afterGc: { memoryUsage: Record<'heapUsed', number>; spaces: Array<{ name: string; size: number; used: number }> }
}

function readMemoryStats(file: string): ProcessMemoryStats | undefined {
  if (!existsSync(file)) return undefined
  // written by cpuProfilePreload.cjs
  const { memoryUsage: m, afterGc } = JSON.parse(readFileSync(file, 'utf8')) as MemoryFile
  const toMb = (bytes: number) => bytes / 1024 / 1024
  return {
    rss: toMb(m.rss),
    heapTotal: toMb(m.heapTotal),
    heapUsed: toMb(m.heapUsed),
    external: toMb(m.external),
    arrayBuffers: toMb(m.arrayBuffers),
    liveHeap: toMb(afterGc.memoryUsage.heapUsed),
    spaces: afterGc.spaces
      .map((sp) => ({ name: sp.name, size: toMb(sp.size), used: toMb(sp.used) }))
      .filter((sp) => sp.size >= 1)
      .sort((a, b) => b.size - a.size),
  }
}
