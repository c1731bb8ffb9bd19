import { existsSync, readFileSync, writeFileSync } from 'node:fs'

/** Reads a KEY=value file (the .data/stack.env the local stack writes). */
export function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {}
  const out: Record<string, string> = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim())
    if (m?.[1] !== undefined && m[2] !== undefined) out[m[1]] = m[2]
  }
  return out
}

export function writeEnvFile(file: string, values: Record<string, string | undefined>, header: string): void {
  const lines = Object.entries(values)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${v}`)
  writeFileSync(file, `# ${header}\n${lines.join('\n')}\n`, { mode: 0o600 })
}
