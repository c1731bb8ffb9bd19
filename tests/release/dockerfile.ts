import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * A small reader of the repository's Dockerfile, so tests can do what its stages do
 * (tests/release/standalone.int.test.ts copies and runs exactly what the `web` and
 * `worker` stages copy and run) and the CDK test can hold the ECS health checks to the
 * images' HEALTHCHECK. It understands what our Dockerfile uses: comments, line
 * continuations, FROM ... AS, and JSON-form CMD / HEALTHCHECK.
 */

export type DockerInstruction = { keyword: string; args: string }
export type DockerStage = { name: string; from: string; instructions: DockerInstruction[] }

export type DockerTarget = {
  name: string
  from: string
  workdir: string
  env: Record<string, string>
  /** COPY --from=build SRC DEST, in order, DEST resolved against WORKDIR */
  copiesFromBuild: { src: string; dest: string }[]
  /** COPY lines that take files from the build context (none expected in runtime stages) */
  copiesFromContext: string[]
  user: string | undefined
  cmd: string[]
  healthcheck: { options: Record<string, string>; cmd: string[] } | undefined
  stopSignal: string | undefined
  expose: string[]
}

export function readDockerfile(root: string): DockerStage[] {
  return parseDockerfile(readFileSync(path.join(root, 'Dockerfile'), 'utf8'))
}

export function parseDockerfile(text: string): DockerStage[] {
  const logical: string[] = []
  let current = ''
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd()
    if (/^\s*#/.test(line) || (current === '' && line.trim() === '')) continue
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `
      continue
    }
    current += line
    if (current.trim()) logical.push(current.trim())
    current = ''
  }
  if (current.trim()) logical.push(current.trim())

  const stages: DockerStage[] = []
  for (const l of logical) {
    const m = /^(\w+)\s+([\s\S]*)$/.exec(l)
    if (!m) continue
    const keyword = (m[1] ?? '').toUpperCase()
    const args = (m[2] ?? '').replace(/\s+/g, ' ').trim()
    if (keyword === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)
      stages.push({ name: f?.[2] ?? String(stages.length), from: f?.[1] ?? args, instructions: [] })
    } else if (stages.length > 0) {
      stages[stages.length - 1]?.instructions.push({ keyword, args })
    }
  }
  return stages
}

export function dockerTarget(stages: DockerStage[], name: string): DockerTarget {
  const stage = stages.find((s) => s.name === name)
  if (!stage) throw new Error(`the Dockerfile has no stage named ${name}`)
  const t: DockerTarget = {
    name,
    from: stage.from,
    workdir: '/',
    env: {},
    copiesFromBuild: [],
    copiesFromContext: [],
    user: undefined,
    cmd: [],
    healthcheck: undefined,
    stopSignal: undefined,
    expose: [],
  }
  for (const { keyword, args } of stage.instructions) {
    switch (keyword) {
      case 'WORKDIR':
        t.workdir = path.posix.resolve(t.workdir, args)
        break
      case 'ENV':
        for (const [, k, v] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) if (k && v) t.env[k] = v.replace(/^"|"$/g, '')
        break
      case 'COPY': {
        const parts = args.split(' ')
        const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length)
        const paths = parts.filter((p) => !p.startsWith('--'))
        const dest = paths.pop() ?? '.'
        if (from === 'build')
          for (const src of paths) t.copiesFromBuild.push({ src, dest: path.posix.resolve(t.workdir, dest) })
        else t.copiesFromContext.push(args)
        break
      }
      case 'USER':
        t.user = args
        break
      case 'CMD':
        t.cmd = JSON.parse(args) as string[] // JSON form, asserted by the Dockerfile test
        break
      case 'HEALTHCHECK': {
        const i = args.indexOf(' CMD ')
        const options = Object.fromEntries(
          [...args.slice(0, i).matchAll(/--([\w-]+)=(\S+)/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
        )
        t.healthcheck = { options, cmd: JSON.parse(args.slice(i + ' CMD '.length)) as string[] } // JSON form
        break
      }
      case 'STOPSIGNAL':
        t.stopSignal = args
        break
      case 'EXPOSE':
        t.expose.push(...args.split(' '))
        break
    }
  }
  return t
}
