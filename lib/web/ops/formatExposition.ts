/** one line of a family: `suffix` '' for a counter or gauge, '_bucket' | '_sum' | '_count' for a histogram */
export type ExpositionSample = {
  suffix?: '' | '_bucket' | '_sum' | '_count'
  labels?: Record<string, string>
  value: number | string | null
}

export type ExpositionFamily = {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  samples: ExpositionSample[]
}

/**
 * Families in the Prometheus text exposition format 0.0.4: HELP and TYPE once per family,
 * its samples right after (labels in the order given, escaped). A null or non-finite value is
 * left out (unknown is not 0); a string is an exact decimal (wei, ounces) written as-is.
 */
export function formatExposition(families: readonly ExpositionFamily[]): string {
  const lines: string[] = []
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`)
    for (const s of f.samples) {
      const value = formatValue(s.value)
      if (value !== null) lines.push(`${f.name}${s.suffix ?? ''}${formatLabels(s.labels)} ${value}`)
    }
  }
  return `${lines.join('\n')}\n`
}

function formatValue(value: number | string | null): string | null {
  if (value === null) return null
  if (typeof value === 'string') return /^\d+(\.\d+)?$/.test(value) ? value : null
  if (!Number.isFinite(value)) return null
  return Number.isInteger(value)
    ? value.toString()
    : value
        .toPrecision(15)
        .replace(/(\.\d*?)0+$/, '$1')
        .replace(/\.$/, '')
}

function formatLabels(labels: Record<string, string> | undefined): string {
  if (!labels) return ''
  const keys = Object.keys(labels)
  if (keys.length === 0) return ''
  return `{${keys.map((k) => `${k}="${(labels[k] ?? '').replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`).join(',')}}`
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
}
