import type { TargetResult } from './evaluateTargets'

/** "Notes on missed targets": for each miss, what bounds it and the measurements that show it (once per note). */
export function renderMissNotes({ targets, line }: { targets: TargetResult[]; line: (s?: string) => void }): void {
  const misses = targets.filter((t) => t.pass === false && t.note)
  line('## Notes on missed targets')
  line()
  if (misses.length === 0) line('None: every target was met.')
  const seen = new Map<string, string>()
  for (const t of misses) {
    if (!t.note) continue
    line(`### ${t.name}`)
    line()
    line(`Measured: ${t.measured}.`)
    line()
    const key = JSON.stringify(t.note)
    const earlier = seen.get(key)
    if (earlier) {
      line(`Same bound and evidence as "${earlier}".`)
      line()
      continue
    }
    seen.set(key, t.name)
    line(`**Bound:** ${t.note.bound}`)
    line()
    for (const e of t.note.evidence) line(`- ${e}`)
    line()
  }
}
