// The worker image's health check (HEALTHCHECK in the Dockerfile, healthCheck of the ECS
// container): `node healthcheck.mjs`, run in the worker's working directory, exits 0
// when a `node ... worker.mjs` process with that same working directory is alive and
// neither a zombie nor stopped, 1 otherwise. The worker has no HTTP port; whether it
// makes progress is watched by the queue alarms (oldest queued job's age), not here, so
// a database outage does not make ECS kill healthy workers.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

const cwd = process.cwd()

function isLiveWorker(pid: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    if (!argv.some((a) => a === 'worker.mjs' || a.endsWith('/worker.mjs'))) return false
    if (readlinkSync(`/proc/${pid}/cwd`) !== cwd) return false
    // /proc/PID/stat: "pid (comm) STATE ..."; comm may hold spaces and parentheses
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    return !['Z', 'X', 'x', 'T', 't'].includes(state)
  } catch {
    return false
  }
}

const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== String(process.pid))
process.exitCode = pids.some(isLiveWorker) ? 0 : 1
