/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for the metrics tests:
 * it throws on anything Prometheus would refuse or misread, and on the rules of a good
 * exposition besides. Per line: `# HELP name text`, `# TYPE name counter|gauge|histogram|
 * summary|untyped`, other comments, or `name{label="value",...} value [timestamp]`.
 * Rules: names and label names of their grammar, label values with only \\ \" \n escapes,
 * values Go floats (+Inf, -Inf, NaN), HELP and TYPE at most once per family and TYPE
 * before its samples, a family's samples together, no series twice, a counter never
 * negative, a histogram's samples `_bucket` (with `le`), `_sum`, `_count` where per label
 * set the bounds ascend, the counts are cumulative, `+Inf` exists and equals `_count`.
 */
export type ParsedSample = { name: string; labels: Record<string, string>; value: number }
export type ParsedFamily = { name: string; type: string; help?: string; samples: ParsedSample[] }

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])

export function parsePrometheusText(text: string): Map<string, ParsedFamily> {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a newline')
  const families = new Map<string, ParsedFamily>()
  const closed = new Set<string>()
  const seen = new Set<string>()
  const typed = new Set<string>()
  let current: string | null = null
  const enter = (name: string, line: number) => {
    if (current === name) return
    if (closed.has(name)) throw new Error(`line ${line}: the samples of ${name} are not together`)
    if (current) closed.add(current)
    current = name
  }
  text.split('\n').forEach((raw, i) => {
    const line = i + 1
    if (raw === '') return
    if (raw.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(raw)
      if (!m) return // another comment
      const [, kind, name = '', rest = ''] = m
      if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`)
      enter(name, line)
      const f = families.get(name) ?? { name, type: 'untyped', samples: [] }
      families.set(name, f)
      if (kind === 'HELP') {
        if (f.help !== undefined) throw new Error(`line ${line}: second HELP for ${name}`)
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) throw new Error(`line ${line}: bad escape in HELP`)
        f.help = rest
      } else {
        if (typed.has(name)) throw new Error(`line ${line}: second TYPE for ${name}`)
        if (f.samples.length > 0) throw new Error(`line ${line}: TYPE of ${name} after its samples`)
        if (!TYPES.has(rest.trim())) throw new Error(`line ${line}: unknown type ${rest}`)
        f.type = rest.trim()
        typed.add(name)
      }
      return
    }
    const sample = parseSampleLine(raw, line)
    const family = familyOf(sample.name, families)
    enter(family.name, line)
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`
    if (seen.has(key)) throw new Error(`line ${line}: series ${sample.name} ${JSON.stringify(sample.labels)} twice`)
    seen.add(key)
    if (family.type === 'counter' && (sample.value < 0 || Number.isNaN(sample.value)))
      throw new Error(`line ${line}: counter ${sample.name} is ${sample.value}`)
    if (family.type === 'histogram') {
      const suffix = sample.name.slice(family.name.length)
      if (!['_bucket', '_sum', '_count'].includes(suffix))
        throw new Error(`line ${line}: ${sample.name} is not a histogram sample of ${family.name}`)
      if (suffix === '_bucket' && sample.labels.le === undefined) throw new Error(`line ${line}: a bucket without le`)
      if (suffix !== '_bucket' && sample.labels.le !== undefined) throw new Error(`line ${line}: le on ${sample.name}`)
    }
    family.samples.push(sample)
  })
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f)
  return families
}

/** a sample's family: its own name, or for a histogram/summary the name without _bucket/_sum/_count */
function familyOf(name: string, families: Map<string, ParsedFamily>): ParsedFamily {
  const own = families.get(name)
  if (own) return own
  const base = name.replace(/_(bucket|sum|count)$/, '')
  const parent = families.get(base)
  if (parent && (parent.type === 'histogram' || parent.type === 'summary')) return parent
  const f: ParsedFamily = { name, type: 'untyped', samples: [] }
  families.set(name, f)
  return f
}

function parseSampleLine(raw: string, line: number): ParsedSample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/.exec(raw)
  if (!m) throw new Error(`line ${line}: not a sample: ${raw}`)
  const [, name = '', , labelText, valueText = ''] = m
  return {
    name,
    labels: labelText === undefined ? {} : parseLabels(labelText, line),
    value: parseValue(valueText, line),
  }
}

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {}
  let rest = text
  while (rest.length > 0) {
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest)
    if (!m) throw new Error(`line ${line}: bad labels {${text}}`)
    const [whole, name = '', value = ''] = m
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`line ${line}: bad label name ${name}`)
    if (name in labels) throw new Error(`line ${line}: label ${name} twice`)
    labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    rest = rest.slice(whole.length)
  }
  return labels
}

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY
  if (text === '-Inf') return Number.NEGATIVE_INFINITY
  if (text === 'NaN') return Number.NaN
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value ${text}`)
  return Number(text)
}

function checkHistogram(f: ParsedFamily): void {
  const groups = new Map<string, { buckets: { le: number; value: number }[]; sum?: number; count?: number }>()
  for (const s of f.samples) {
    const { le, ...rest } = s.labels
    const key = JSON.stringify(Object.entries(rest).sort())
    const g = groups.get(key) ?? { buckets: [] }
    groups.set(key, g)
    if (s.name.endsWith('_bucket')) {
      const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : parseValue(le ?? '', 0)
      g.buckets.push({ le: bound, value: s.value })
    } else if (s.name.endsWith('_sum')) g.sum = s.value
    else g.count = s.value
  }
  for (const [key, g] of groups) {
    const where = `${f.name}${key}`
    if (g.count === undefined || g.sum === undefined) throw new Error(`${where}: _sum and _count are required`)
    for (let i = 1; i < g.buckets.length; i++) {
      const [a, b] = [g.buckets[i - 1], g.buckets[i]]
      if (!a || !b || !(b.le > a.le)) throw new Error(`${where}: bucket bounds do not ascend`)
      if (b.value < a.value) throw new Error(`${where}: buckets are not cumulative (le=${b.le})`)
    }
    const last = g.buckets[g.buckets.length - 1]
    if (!last || last.le !== Number.POSITIVE_INFINITY) throw new Error(`${where}: no +Inf bucket`)
    if (last.value !== g.count) throw new Error(`${where}: +Inf bucket ${last.value} is not _count ${g.count}`)
  }
}
